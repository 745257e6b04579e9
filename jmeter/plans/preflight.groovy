// The set-up step of every checked-in plan, run once before any load when a plan runs by hand
// (./mvnw jmeter:jmeter -Djmeter.plan=..., see jmeter/README.md). Maven hands the -Djmeter.* knobs to the JMeter
// JVM as system properties; this makes them the plans' properties (a -J given to JMeter directly
// wins). Then it asks the module the plan is about to load for GET /colors, and if nothing answers
// it stops JMeter with a message naming the URL, rather than letting it record minutes of errors.
// In JMeter's GUI it stops the run only, and leaves the GUI open.
['host', 'port', 'path', 'threads', 'duration', 'rampup', 'rate', 'pool', 'warmup'].each { name ->
    String given = System.getProperty('jmeter.' + name)
    if (given != null && !props.containsKey(name)) {
        props.put(name, given)
    }
}
String url = 'http://' + props.getProperty('host', '127.0.0.1') + ':' + props.getProperty('port', '8080') +
        props.getProperty('path', '/colors')
String problem = null
long deadline = System.currentTimeMillis() + 10_000
while (true) {
    try {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection()
        connection.connectTimeout = 2000
        connection.readTimeout = 5000
        int status = connection.responseCode
        connection.inputStream.withCloseable { it.bytes }
        if (status == 200) {
            OUT.println('[benchmark] ' + url + ' answers; starting the load')
            return
        }
        problem = 'it answered HTTP ' + status
    }
    catch (IOException ex) {
        problem = ex.toString()
    }
    if (System.currentTimeMillis() > deadline) {
        break
    }
    Thread.sleep(1000)
}
OUT.println('')
OUT.println('[benchmark] No module answers GET ' + url + ' (' + problem + ').')
OUT.println('[benchmark] Start the modules first (./mvnw -Pstack verify, or docker compose up -d --build),')
OUT.println('[benchmark] or point the plan at one: ./mvnw jmeter:jmeter -Djmeter.plan=' + org.apache.jmeter.services.FileServer.fileServer.scriptName + ' -Djmeter.port=<port> [-Djmeter.host=<host>]')
OUT.println('')
OUT.flush()
if (org.apache.jmeter.gui.GuiPackage.instance != null) {
    log.warn('[benchmark] No module answers GET ' + url + ' (' + problem + ')')
    ctx.engine.stopTest(true)
    return
}
System.exit(1)
