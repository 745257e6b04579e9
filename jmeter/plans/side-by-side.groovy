// The set-up step of side-by-side.jmx, run once before any load. Maven hands the -Djmeter.* knobs to the
// JMeter JVM as system properties; this makes them the plan's properties (a -J given to JMeter directly wins).
// Without targets (name:port, comma-separated), the modules are those of the repository's poms (side-by-side-targets.groovy),
// so that the plan runs from JMeter's GUI as it is. Then it asks every module of targets (modules picks some) for
// GET /colors, all at once: a module that answers the palette byte for byte is loaded; one that does not listen
// is not running and is left out; one that answers anything else stops the run, since its figures would mean
// nothing. With none answering, it stops the run within seconds, naming the host and the ports it tried.
// It stops the run rather than the JVM (stopRun): on a remote engine (jmeter-server) the JVM is the engine's,
// and side-by-side-table.groovy fails the build when nothing was measured. What it prints goes to the log too,
// where JMeter's GUI shows it.
import java.security.MessageDigest
import java.util.concurrent.Callable
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

// a GUI runs the plan again in the same JVM: an earlier run's failure is not this one's
props.remove('side.failed')
['host', 'modules', 'targets', 'threads', 'duration', 'warmup', 'path'].each { name ->
    String given = System.getProperty('jmeter.' + name)
    if (given != null && !props.containsKey(name)) {
        props.put(name, given)
    }
}

// A -Dbenchmark.<name> on Maven's command line (which Maven's mvn script exports) is the benchmark's knob, not this plan's:
// ignored, it would load what was not asked, for as long as was not asked
List<String> benchmarkKnobs = (System.getenv('MAVEN_CMD_LINE_ARGS') ?: '').split(/\s+/).findAll { it.startsWith('-Dbenchmark.') }
        .collect { it.substring('-D'.length()).split('=')[0] }.unique()
if (benchmarkKnobs) {
    stopRun(benchmarkKnobs.collect { '-D' + it }.join(', ') + ': the benchmark\'s knobs (benchmark/README.md), which ./mvnw jmeter:jmeter does not read.',
            'Its own knobs are -Djmeter.<name> (jmeter/README.md): ' + benchmarkKnobs.collect { '-Djmeter.' + it.substring('benchmark.'.length()) }.join(', '))
    return
}

String host = props.getProperty('host', '127.0.0.1')
String path = props.getProperty('path', '/colors')
// beside this script: the checked-in plans (jmeter.plans, which jmeter/pom.xml gives every JMeter it starts, a remote
// engine included), or the folder the plan runs from; the repository is two folders up
File plans = new File(System.getProperty('jmeter.plans') ?: org.apache.jmeter.services.FileServer.fileServer.baseDir).absoluteFile
Map<String, Integer> targets = [:]
String listed = props.getProperty('targets', '')
if (listed.isBlank()) {
    targets = evaluate(new File(plans, 'side-by-side-targets.groovy'))(plans.parentFile.parentFile)
}
listed.split(',').findAll { !it.isBlank() }.each { target ->
    def (name, port) = target.trim().split(':')
    targets[name] = port as Integer
}
List<String> asked = props.getProperty('modules', '').split(',').collect { it.trim() }.findAll { !it.isEmpty() }
List<String> unknown = asked.findAll { !targets.containsKey(it) }
if (!targets || unknown) {
    stopRun(targets ? 'Unknown module(s) ' + unknown + ': the modules are ' + targets.keySet().join(', ')
            : 'No modules to load: targets (name:port,...) is empty')
    return
}
List<String> rows = asked ?: targets.keySet() as List

/** Prints why, and stops the run before any load; the table script fails the build (see above). */
void stopRun(String... why) {
    OUT.println('')
    why.each {
        OUT.println('[side-by-side] ' + it)
        log.warn('[side-by-side] ' + it)
    }
    OUT.println('')
    OUT.flush()
    props.put('side.failed', why.join(' '))
    ctx.engine.stopTest(true)
}

byte[] palette = new File(plans, 'palette.json').bytes

/**
 * What a module answers: 'answers', 'not running', or what went wrong. A status other than 200 is asked again for
 * up to 10 s: a module's first requests can time out on a cold JVM (a 503), which is no reason to leave it out.
 */
String ask(String url, byte[] expected) {
    long deadline = System.currentTimeMillis() + 10_000
    String answer = askOnce(url, expected)
    while (answer.startsWith('answered HTTP') && System.currentTimeMillis() < deadline) {
        Thread.sleep(500)
        answer = askOnce(url, expected)
    }
    return answer
}

String askOnce(String url, byte[] expected) {
    try {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection()
        connection.connectTimeout = 1000
        connection.readTimeout = 5000
        int status = connection.responseCode
        byte[] body = (status < 400 ? connection.inputStream : connection.errorStream)?.withCloseable { it.bytes } ?: new byte[0]
        if (status != 200) {
            return 'answered HTTP ' + status + ': ' + new String(body, 'UTF-8').take(200)
        }
        return Arrays.equals(body, expected) ? 'answers' : 'answered 200 with something else than the palette: ' + new String(body, 'UTF-8').take(200)
    }
    catch (ConnectException | SocketTimeoutException | NoRouteToHostException ex) {
        return 'not running'
    }
    catch (IOException ex) {
        return 'unreachable: ' + ex
    }
}

def pool = Executors.newFixedThreadPool(rows.size())
Map<String, String> answers = [:]
try {
    rows.collectEntries { name -> [name, pool.submit({ ask('http://' + host + ':' + targets[name] + path, palette) } as Callable<String>)] }
            .each { name, answer -> answers[name] = answer.get(30, TimeUnit.SECONDS) }
}
finally {
    pool.shutdownNow()
}

List<String> running = rows.findAll { answers[it] == 'answers' }
List<String> notRunning = rows.findAll { answers[it] == 'not running' }
List<String> broken = rows.findAll { !running.contains(it) && !notRunning.contains(it) }
if (broken) {
    stopRun(*(broken.collect { it + ' (http://' + host + ':' + targets[it] + path + ') ' + answers[it] } +
            ['A module that answers but not the palette would be measured doing something else: fix it, or leave it out with -Djmeter.modules=...']))
    return
}
if (!running) {
    stopRun('No module answers GET ' + path + ' on ' + host + '; tried ' + rows.collect { it + ' (' + targets[it] + ')' }.join(', ') + '.',
            'Start them first, in another terminal: ./mvnw -Pstack verify (or docker compose up -d --build),',
            'or name the host they run on: ./mvnw jmeter:jmeter -Djmeter.host=<host> (JMeter alone: -Jhost=<host>)')
    return
}

running.eachWithIndex { name, i ->
    props.put('side.module.' + i, name)
    props.put('side.port.' + i, targets[name] as String)
}
props.put('side.count', running.size() as String)
// the rows of side-by-side-table.groovy's table, wherever the list came from
props.put('side.targets', targets.collect { name, port -> name + ':' + port }.join(','))
props.put('side.notRunning', notRunning.join(','))
props.put('side.md5', MessageDigest.getInstance('MD5').digest(palette).encodeHex().toString())

int perModule = (props.getProperty('warmup', '5') as int) + (props.getProperty('duration', '10') as int)
int minutes = Math.ceil(running.size() * perModule / 60.0) as int
List<String> schedule = [running.size() + ' of ' + rows.size() + ' modules answer on ' + host + ': ' + running.join(', ') + '.']
if (notRunning) {
    schedule << 'Not running: ' + notRunning.collect { it + ' (' + targets[it] + ')' }.join(', ') + '.'
}
schedule << 'Each in turn: ' + props.getProperty('warmup', '5') + ' s of warm-up, then ' + props.getProperty('duration', '10') +
        ' s measured, ' + props.getProperty('threads', '10') + ' threads; about ' + minutes + ' min.'
schedule.each {
    OUT.println('[side-by-side] ' + it)
    log.info('[side-by-side] ' + it)
}
OUT.flush()
