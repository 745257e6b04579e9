// Every module side-by-side.jmx loads by default, with its port: the modules of modules/pom.xml, in its order, each at
// the colorbench.port of its own pom. The set-up step and the table script read them here, when they run, so that a new
// module is loaded without a list to edit and without a build first. This script returns a closure that takes the
// repository's folder and returns the modules as an ordered map of name to port. It uses the JDK's XML parser, not
// Groovy's, which JMeter ships but the benchmark's tests of this script do not have.
import javax.xml.parsers.DocumentBuilderFactory
import org.w3c.dom.Element

/** The child elements of parent named name (any namespace: a pom's is Maven's). */
List<Element> children(Element parent, String name) {
    (0..<parent.childNodes.length).collect { parent.childNodes.item(it) }
            .findAll { it instanceof Element && (it.localName ?: it.nodeName) == name } as List<Element>
}

Element pom(File file) {
    if (!file.isFile()) {
        throw new FileNotFoundException('No ' + file + ': the module list is read from the poms of a clone of the repository')
    }
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance()
    factory.namespaceAware = true
    factory.setFeature('http://apache.org/xml/features/disallow-doctype-decl', true)
    factory.newDocumentBuilder().parse(file).documentElement
}

String property(Element project, String name) {
    children(project, 'properties').collectMany { children(it, name) }.collect { it.textContent.trim() }.find()
}

return { File repository ->
    File modules = new File(repository, 'modules')
    Element parent = pom(new File(modules, 'pom.xml'))
    Map<String, Integer> targets = [:]
    children(parent, 'modules').collectMany { children(it, 'module') }.collect { it.textContent.trim() }.each { name ->
        String port = property(pom(new File(new File(modules, name), 'pom.xml')), 'colorbench.port') ?: property(parent, 'colorbench.port')
        if (!(port ==~ /[1-9][0-9]*/)) {
            throw new IllegalStateException('modules/' + name + '/pom.xml gives colorbench.port ' + port + ': side-by-side.jmx needs the port it listens on')
        }
        targets[name] = port as Integer
    }
    return targets
}
