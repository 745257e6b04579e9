package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Builds the run's single plan from the checked-in plans: one copy of their thread group per
 * scheduled run, each with its module's port and the run's settings written in, one after another
 * (the plans serialize their thread groups). One JMeter process then runs the whole benchmark,
 * instead of paying a JVM start per module and repetition.
 */
final class PlanWriter {

    private static final Pattern PROPERTY = Pattern.compile("\\$\\{__P\\((\\w+),([^)]*)\\)}");

    private final Path templates;

    PlanWriter(Path templates) {
        this.templates = templates;
    }

    String runPlan(BenchmarkSettings settings, List<ScheduledRun> schedule, Path palette) {
        Document plan = parse(templates.resolve("throughput.jmx"));
        Element planTree = planTree(plan);
        ThreadGroupTemplate closedModel = ThreadGroupTemplate.takeFrom(planTree);
        ThreadGroupTemplate openModel = ThreadGroupTemplate.takeFrom(planTree(parse(templates.resolve("latency.jmx"))));
        substitute(planTree, Map.of("palette", palette.toAbsolutePath().toString()));
        for (ScheduledRun run : schedule) {
            ThreadGroupTemplate template = run.phase() == Phase.LATENCY ? openModel : closedModel;
            Element group = (Element) plan.importNode(template.group(), true);
            Element tree = (Element) plan.importNode(template.tree(), true);
            group.setAttribute("testname", run.label().replace('|', ' '));
            sampler(tree).setAttribute("testname", run.label());
            Map<String, String> values = valuesFor(settings, run);
            if (run.phase() == Phase.LATENCY) {
                waitForPlannedStart(group, run);
            }
            if (run.phase() == Phase.THROUGHPUT) {
                setProperty(group, "ThreadGroup.delay", String.valueOf(ServerTiming.QUIET_SECONDS));
            }
            substitute(group, values);
            substitute(tree, values);
            planTree.appendChild(group);
            planTree.appendChild(tree);
        }
        return serialize(plan);
    }

    private static Map<String, String> valuesFor(BenchmarkSettings settings, ScheduledRun run) {
        int rampup = run.phase() == Phase.WARMUP ? Math.min(settings.rampupSeconds(), run.seconds() / 2) : settings.rampupSeconds();
        int duration = run.phase() == Phase.LATENCY ? settings.latencyDurationSeconds() : run.seconds();
        return Map.of(
                "host", BenchmarkSettings.HOST,
                "port", String.valueOf(settings.port(run.module())),
                "path", "/colors",
                "threads", String.valueOf(settings.threads()),
                "rampup", String.valueOf(rampup),
                "duration", String.valueOf(duration),
                "rate", String.valueOf(settings.rate()));
    }

    /** See {@link ScheduledRun#OPEN_MODEL_SLACK_SECONDS}: the schedule starts with a pause up to the planned start. */
    private static void waitForPlannedStart(Element group, ScheduledRun run) {
        NodeList properties = group.getElementsByTagName("stringProp");
        for (int i = 0; i < properties.getLength(); i++) {
            Element property = (Element) properties.item(i);
            if ("OpenModelThreadGroup.schedule".equals(property.getAttribute("name"))) {
                property.setTextContent("pause(" + run.startSecond() + " sec) " + property.getTextContent());
                return;
            }
        }
        throw new IllegalStateException("The latency plan's thread group has no open-model schedule");
    }

    /** See {@link ServerTiming#QUIET_SECONDS}: a closed-model measured group waits before it sends, so the module is idle in between. */
    private static void setProperty(Element group, String name, String value) {
        NodeList properties = group.getElementsByTagName("stringProp");
        for (int i = 0; i < properties.getLength(); i++) {
            Element property = (Element) properties.item(i);
            if (name.equals(property.getAttribute("name"))) {
                property.setTextContent(value);
                return;
            }
        }
        throw new IllegalStateException("The throughput plan's thread group has no " + name);
    }

    /** Writes the given values in place of {@code ${__P(name,default)}}; other properties keep their default. */
    static String substitute(String text, Map<String, String> values) {
        Matcher matcher = PROPERTY.matcher(text);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            String replacement = values.getOrDefault(matcher.group(1), matcher.group(0));
            matcher.appendReplacement(result, Matcher.quoteReplacement(replacement));
        }
        return matcher.appendTail(result).toString();
    }

    private static void substitute(Node node, Map<String, String> values) {
        if (node.getNodeType() == Node.TEXT_NODE) {
            node.setNodeValue(substitute(node.getNodeValue(), values));
            return;
        }
        NamedNodeMap attributes = node.getAttributes();
        if (attributes != null) {
            for (int i = 0; i < attributes.getLength(); i++) {
                Node attribute = attributes.item(i);
                attribute.setNodeValue(substitute(attribute.getNodeValue(), values));
            }
        }
        NodeList children = node.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            substitute(children.item(i), values);
        }
    }

    /** The hashTree holding the test plan's children. */
    private static Element planTree(Document plan) {
        Element rootTree = firstElement(plan.getDocumentElement());
        Element testPlan = firstElement(rootTree);
        return nextElement(testPlan);
    }

    private static Element sampler(Element tree) {
        NodeList samplers = tree.getElementsByTagName("HTTPSamplerProxy");
        if (samplers.getLength() != 1) {
            throw new IllegalStateException("A thread group of the plans must hold exactly one HTTP sampler");
        }
        return (Element) samplers.item(0);
    }

    /** A plan's thread group and the hashTree of its children, as JMX pairs them. */
    private record ThreadGroupTemplate(Element group, Element tree) {

        /** Finds the only thread group of {@code planTree} and removes it from there. */
        static ThreadGroupTemplate takeFrom(Element planTree) {
            for (Element child = firstElement(planTree); child != null; child = nextElement(child)) {
                if (child.getTagName().endsWith("ThreadGroup")) {
                    Element tree = nextElement(child);
                    planTree.removeChild(child);
                    planTree.removeChild(tree);
                    return new ThreadGroupTemplate(child, tree);
                }
            }
            throw new IllegalStateException("No thread group in the plan");
        }
    }

    private static Element firstElement(Node parent) {
        return nextElementFrom(parent.getFirstChild());
    }

    private static Element nextElement(Node node) {
        return nextElementFrom(node.getNextSibling());
    }

    private static Element nextElementFrom(Node node) {
        while (node != null && node.getNodeType() != Node.ELEMENT_NODE) {
            node = node.getNextSibling();
        }
        return (Element) node;
    }

    private static Document parse(Path file) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(file.toFile());
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read plan " + file, ex);
        }
        catch (Exception ex) {
            throw new IllegalStateException("Cannot parse plan " + file, ex);
        }
    }

    private static String serialize(Document plan) {
        try {
            var transformer = TransformerFactory.newInstance().newTransformer();
            transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            StringWriter out = new StringWriter();
            transformer.transform(new DOMSource(plan), new StreamResult(out));
            return out.toString();
        }
        catch (Exception ex) {
            throw new IllegalStateException("Cannot write the run plan", ex);
        }
    }
}
