// JMeter's init script (jsr223.init.file, set in ../pom.xml), run when JMeter starts. After a run of
// side-by-side.jmx, once JMeter has written its dashboard and exits, it reads the dashboard's statistics
// (statistics.json: every measured sample of each module, the warm-up left out) and prints the side-by-side
// table, writing it to <jmeter.tableDirectory>/side-by-side.md and .html. A module with no samples was
// not running. If any module's errors are above jmeter.errorThreshold percent, JMeter's exit code
// becomes 1, which fails the build. JMeter offers a plan no later hook than the end of its JVM, hence the
// shutdown hook; it does nothing after any other plan, or if the run stopped before the load. With no dashboard
// asked for (JMeter's GUI, or JMeter's command line without -e -o) there is no table to write.
import groovy.json.JsonSlurper
import java.text.NumberFormat

/** A knob as the set-up step read it: a -J given to JMeter, else Maven's -Djmeter.<name> (a remote run's controller has only that). */
String knob(String name, String otherwise) {
    props.getProperty(name) ?: System.getProperty('jmeter.' + name, otherwise)
}

String escape(String text) {
    text.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;').replace('"', '&quot;')
}

Runtime.runtime.addShutdownHook(new Thread({
    if (org.apache.jmeter.services.FileServer.fileServer.scriptName != 'side-by-side.jmx') {
        return
    }
    String dashboard = props.getProperty('jmeter.reportgenerator.outputdir')
    if (props.getProperty('side.failed') != null) {
        System.out.flush()
        Runtime.runtime.halt(1)
    }
    if (dashboard == null) {
        return
    }
    if (!new File(dashboard, 'statistics.json').isFile()) {
        println 'No module was measured (no dashboard statistics in ' + dashboard + '): see the output above, or each engine\'s'
        System.out.flush()
        Runtime.runtime.halt(1)
    }
    try {
        Map<String, Map> statistics = new JsonSlurper().parse(new File(dashboard, 'statistics.json')) as Map
        // the set-up step's list; a remote run's controller ran no set-up step, and reads the list as the engines did
        Map<String, Integer> targets = [:]
        String listed = props.getProperty('side.targets') ?: knob('targets', '')
        if (listed.isBlank()) {
            File plans = new File(System.getProperty('jmeter.plans') ?: org.apache.jmeter.services.FileServer.fileServer.baseDir).absoluteFile
            targets = evaluate(new File(plans, 'side-by-side-targets.groovy'))(plans.parentFile.parentFile)
        }
        listed.split(',').findAll { !it.isBlank() }.each { target ->
            def (name, port) = target.trim().split(':')
            targets[name] = port as Integer
        }
        List<String> asked = knob('modules', '').split(',').collect { it.trim() }.findAll { !it.isEmpty() }
        List<String> rows = asked ?: targets.keySet() as List
        double threshold = System.getProperty('jmeter.errorThreshold', '0') as double
        NumberFormat whole = NumberFormat.getIntegerInstance(Locale.ROOT)
        whole.groupingUsed = true

        List<List<String>> table = []
        List<String> failed = []
        rows.each { name ->
            Map row = statistics[name]
            if (row == null) {
                table << [name, targets[name] as String, 'not running', '', '', '']
                return
            }
            double errorPct = row.errorPct as double
            if (errorPct > threshold) {
                failed << name + ' (' + String.format(Locale.ROOT, '%.2f', errorPct) + ' %)'
            }
            table << [name, targets[name] as String, whole.format(Math.round(row.throughput as double)),
                      String.format(Locale.ROOT, '%.1f', row.medianResTime as double), String.format(Locale.ROOT, '%.1f', row.pct3ResTime as double),
                      whole.format(row.errorCount as long) + (row.errorCount as long > 0 ? String.format(Locale.ROOT, ' (%.2f %%)', errorPct) : '')]
        }
        if (table.every { it[2] == 'not running' }) {
            failed << 'every module: none was measured (see the output above, or each engine\'s)'
        }
        List<String> header = ['module', 'port', 'TPS', 'p50 ms', 'p99 ms', 'errors']
        String host = knob('host', '127.0.0.1')
        List<String> engines = System.getProperty('jmeter.engines', '').split(',').collect { it.trim() }.findAll { !it.isEmpty() }
        String threads = knob('threads', '10') + ' threads' +
                (engines ? ' on each of ' + engines.size() + ' JMeter engines (' + engines.join(', ') + '), their samples together' : '')
        String about = 'Every module on ' + host + ', one after another: ' + threads + ', ' +
                knob('warmup', '5') + ' s of warm-up then ' + knob('duration', '10') +
                ' s measured each (closed model); JMeter ' + org.apache.jmeter.util.JMeterUtils.JMeterVersion + ', ' + new Date().format('yyyy-MM-dd HH:mm z')
        String index = new File(dashboard, 'index.html').absolutePath

        StringBuilder markdown = new StringBuilder('# Side by side\n\n' + about + '.\n\n')
        markdown << '| ' << header.join(' | ') << ' |\n|' << header.collect { it == 'module' ? '---' : '---:' }.join('|') << '|\n'
        table.each { markdown << '| ' << it.join(' | ') << ' |\n' }
        markdown << '\nJMeter\'s dashboard of this run: ' << index << '\n'

        StringBuilder html = new StringBuilder('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Side by side</title><style>' +
                'body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:.3em .8em;border-bottom:1px solid #ddd}' +
                'td:not(:first-child),th:not(:first-child){text-align:right}</style></head><body><h1>Side by side</h1><p>')
        html << escape(about) << '.</p><table><tr>' << header.collect { '<th>' + it + '</th>' }.join() << '</tr>'
        table.each { html << '<tr>' << it.collect { '<td>' + escape(it) + '</td>' }.join() << '</tr>' }
        html << '</table><p><a href="' << new File(index).toURI() << '">JMeter\'s dashboard of this run</a></p></body></html>\n'

        File directory = new File(System.getProperty('jmeter.tableDirectory', '.'))
        directory.mkdirs()
        new File(directory, 'side-by-side.md').setText(markdown.toString(), 'UTF-8')
        new File(directory, 'side-by-side.html').setText(html.toString(), 'UTF-8')

        List<Integer> widths = header.indices.collect { column -> ([header] + table).collect { it[column].length() }.max() }
        println ''
        println about
        ([header] + table).each { line -> println line.withIndex().collect { cell, i -> i == 0 ? cell.padRight(widths[i]) : cell.padLeft(widths[i]) }.join('  ') }
        println ''
        println 'Written to ' + new File(directory, 'side-by-side.md') + ' and .html; JMeter\'s dashboard: ' + index
        if (failed) {
            println 'FAILED: errors above ' + threshold + ' % (jmeter.errorThreshold) in ' + failed.join(', ')
            System.out.flush()
            Runtime.runtime.halt(1)
        }
        System.out.flush()
    }
    catch (Throwable failure) {
        println 'The side-by-side table could not be written: ' + failure
        System.out.flush()
        Runtime.runtime.halt(1)
    }
}, 'side-by-side table'))
