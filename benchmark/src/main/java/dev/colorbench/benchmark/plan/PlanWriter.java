package dev.colorbench.benchmark.plan;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Writes the run's one plan: for every scheduled run a copy of the thread group of the checked-in
 * {@code throughput.jmx} (closed model) or {@code latency.jmx} (open model) with its row's port and
 * the run's settings written in, and around every measured run a reading of the module's meters
 * ({@code plan/reading.jmx}) and of the CPU used meanwhile. The plan runs its thread groups one after another, so each reading
 * falls exactly between two runs, whatever the clock. Right before each profiled run, a call of the same kind tells the harness
 * that the row's load is about to start, so that the row's profile can start after it has and stop before it ends. At the
 * floor's place in each round, a call of the same kind has the harness measure the floor's Redis work and answer it
 * ({@link Schedule#withFloor}). One JMeter process then runs the whole benchmark.
 */
public final class PlanWriter {

    private static final Pattern PROPERTY = Pattern.compile("\\$\\{__P\\((\\w+),([^)]*)\\)}");

    /**
     * JMeter's open-model thread group times its arrivals from the start of the whole test, not from
     * its own start: a group starting late would fire every past arrival at once. Each one therefore
     * begins with a pause as long as the test has run when the group starts, computed by JMeter then.
     */
    private static final String PAUSE_UNTIL_NOW = "pause(${__longSum(${__time(,)},-${__P(TESTSTART.MS,0)},)} ms) ";

    /** The checked-in plans' comparison of the whole body, by its name. */
    private static final String WHOLE_BODY = "Body is the whole palette";

    private static final String LENGTH_SCRIPT = "int length = prev.getResponseData().length\n"
            + "if (length != %d) {\n"
            + "    AssertionResult.setFailure(true)\n"
            + "    AssertionResult.setFailureMessage('the body is ' + length + ' bytes long, not %d')\n"
            + "}";

    private final Path checkedInPlans;

    private final int cpuReadingsPort;

    /** @param cpuReadingsPort where the run serves the {@link ServerMetric#CPU} readings */
    public PlanWriter(Path checkedInPlans, int cpuReadingsPort) {
        this.checkedInPlans = checkedInPlans;
        this.cpuReadingsPort = cpuReadingsPort;
    }

    /**
     * Writes {@code run.jmx} and the palette its assertions compare with ({@code expectedPalette}) into the run's plan folder;
     * each answer under load is checked as {@code bodyCheck} says.
     */
    public Path write(Schedule schedule, BenchmarkSettings settings, ToIntFunction<String> portOfTarget, RunDirectory directory,
            String expectedPalette, BodyCheck bodyCheck) {
        Path plan = directory.plans().resolve("run.jmx");
        RunDirectory.write(plan, plan(schedule, settings, portOfTarget, bodyCheck, expectedPalette.getBytes(StandardCharsets.UTF_8)));
        RunDirectory.write(directory.plans().resolve("palette.json"), expectedPalette);
        return plan;
    }

    String plan(Schedule schedule, BenchmarkSettings settings, ToIntFunction<String> portOfTarget) {
        return plan(schedule, settings, portOfTarget, BodyCheck.WHOLE, new byte[0]);
    }

    String plan(Schedule schedule, BenchmarkSettings settings, ToIntFunction<String> portOfTarget, BodyCheck bodyCheck, byte[] expected) {
        Document plan = parse(checkedInPlans.resolve("throughput.jmx"));
        Element planTree = planTree(plan);
        removeThreadGroups(planTree);
        Group closedModel = Group.takeFrom(planTree(parse(checkedInPlans.resolve("throughput.jmx"))), "ThreadGroup");
        Group pooled = Group.takeFrom(planTree(parse(checkedInPlans.resolve("latency.jmx"))), "ThreadGroup");
        Group newClients = pooled.asNewClients(plan);
        Group reading = Group.takeFrom(planTree(template("reading.jmx")), "ThreadGroup");
        List<Schedule.Run> measured = schedule.measured();
        List<Schedule.Run> profiled = schedule.runs().stream().filter(run -> run.key().phase() == Phase.PROFILE).toList();
        long secondsLeft = schedule.plannedSeconds();
        for (Schedule.Run run : schedule.runs()) {
            RunKey key = run.key();
            if (key.phase() == Phase.FLOOR) {
                append(planTree, floor(plan, reading, run, "floor of round %d (about %s of load left): one GET of the whole palette, then one MGET of its keys, from the harness"
                        .formatted(key.repetition(), Format.duration(secondsLeft))));
                secondsLeft -= run.seconds();
                continue;
            }
            int port = portOfTarget.applyAsInt(key.target());
            if (key.phase() == Phase.PROFILE) {
                append(planTree, profiledLoadStarting(plan, reading, key, "profile %d/%d: %s".formatted(profiled.indexOf(run) + 1,
                        profiled.size(), key.target())));
            }
            if (key.phase().measured()) {
                String progress = "run %d/%d (about %s of load left): %s, %s, repetition %d".formatted(measured.indexOf(run) + 1,
                        measured.size(), Format.duration(secondsLeft), key.target(), key.phase().label(), key.repetition());
                append(planTree, readings(plan, reading, key, true, port, progress));
            }
            Group template = !run.openModel() ? closedModel : run.drainSeconds() > 0 ? newClients : pooled;
            Group group = template.copyInto(plan, key.label());
            if (template == newClients) {
                Element arrivals = property(group.element(), "OpenModelThreadGroup.schedule");
                arrivals.setTextContent(PAUSE_UNTIL_NOW + arrivals.getTextContent() + " pause(" + run.drainSeconds() + " sec)");
            }
            substitute(group.element(), loadValues(settings, run, port));
            substitute(group.tree(), loadValues(settings, run, port));
            single(group.tree(), "HTTPSamplerProxy").setAttribute("testname", key.label());
            if (bodyCheck != BodyCheck.WHOLE) {
                replaceWholeBodyCheck(plan, group, bodyCheck, expected);
            }
            append(planTree, group);
            if (key.phase().measured()) {
                append(planTree, readings(plan, reading, key, false, port, null));
            }
            secondsLeft -= run.seconds();
        }
        return serialize(plan);
    }

    /** The seconds JMeter takes to start all of {@code run}'s threads: a run in no figure ramps for at most half its length. */
    public static int rampupSeconds(BenchmarkSettings settings, Schedule.Run run) {
        return run.key().phase().measured() ? settings.rampupSeconds() : Math.min(settings.rampupSeconds(), run.seconds() / 2);
    }

    private static Map<String, String> loadValues(BenchmarkSettings settings, Schedule.Run run, int port) {
        int rampup = rampupSeconds(settings, run);
        int rate = run.rate() == null ? settings.rate() : run.rate();
        return Map.of(
                "pool", String.valueOf(pool(rate)),
                "host", BenchmarkSettings.HOST,
                "port", String.valueOf(port),
                "path", "/colors",
                "threads", String.valueOf(settings.threads()),
                "rampup", String.valueOf(rampup),
                "duration", String.valueOf(run.seconds()),
                // a warm-up's arrivals are in no figure: none waits for a drain
                "drain", String.valueOf(run.key().phase().measured() ? Schedule.DRAIN_SECONDS : 0),
                "rate", String.valueOf(rate));
    }

    /**
     * The threads that take an open-model run's arrivals, each on its own kept-alive connection: enough for answers that take
     * {@value #POOL_SECONDS} s on average at that rate (Little's law), at least {@value #MIN_POOL}. Behind a slower row the
     * arrivals wait for a thread, and that wait is in their latency from their due time.
     */
    static int pool(int rate) {
        return Math.max(MIN_POOL, (int) Math.ceil(rate * POOL_SECONDS));
    }

    private static final double POOL_SECONDS = 0.1;

    private static final int MIN_POOL = 20;

    /** One thread group reading every {@link ServerMetric} of the module, before or after {@code key}'s run. */
    private Group readings(Document plan, Group template, RunKey key, boolean before, int port, String progress) {
        Group group = template.copyInto(plan, key.label() + (before ? " before" : " after"));
        Element sampler = single(group.tree(), "HTTPSamplerProxy");
        Element samplerTree = nextElement(sampler);
        for (ServerMetric metric : ServerMetric.inReadingOrder(before)) {
            Element copy = (Element) sampler.cloneNode(true);
            Element copyTree = (Element) samplerTree.cloneNode(true);
            Map<String, String> values = new HashMap<>(Map.of("label", key.readingLabel(before, metric), "host", BenchmarkSettings.HOST,
                    "port", String.valueOf(metric == ServerMetric.CPU ? cpuReadingsPort : port), "path", metric.path(key.target())));
            substitute(copy, values);
            substitute(copyTree, values);
            group.tree().appendChild(copy);
            group.tree().appendChild(copyTree);
        }
        group.tree().removeChild(sampler);
        group.tree().removeChild(samplerTree);
        Element progressTree = nextElement(single(group.tree(), "TestAction"));
        if (progress == null) {
            while (progressTree.getFirstChild() != null) {
                progressTree.removeChild(progressTree.getFirstChild());
            }
        }
        else {
            substitute(progressTree, Map.of("progress", progress));
        }
        return group;
    }

    /**
     * One thread group calling the harness's {@code /profile/<row>} right before {@code key}'s load: the next group, the load,
     * starts as soon as the call is answered, so the harness times the row's profile from this call.
     */
    private Group profiledLoadStarting(Document plan, Group template, RunKey key, String progress) {
        Group group = template.copyInto(plan, key.label() + " starting");
        Map<String, String> values = Map.of("label", key.startingLabel(), "host", BenchmarkSettings.HOST,
                "port", String.valueOf(cpuReadingsPort), "path", "/profile/" + key.target(), "progress", progress);
        substitute(group.element(), values);
        substitute(group.tree(), values);
        return group;
    }

    /**
     * One thread group calling the harness's {@code /floor/<round>}: the harness measures the floor's Redis work while the call
     * waits, and answers what it measured, which JMeter records as a reading. Nothing else runs meanwhile, as during a row's run.
     * The call waits as long as the step lasts and {@value #FLOOR_SLACK_SECONDS} s more, for the harness's Redis readings.
     */
    private Group floor(Document plan, Group template, Schedule.Run run, String progress) {
        RunKey key = run.key();
        Group group = template.copyInto(plan, key.label());
        Map<String, String> values = Map.of("label", key.label(), "host", BenchmarkSettings.HOST,
                "port", String.valueOf(cpuReadingsPort), "path", "/floor/" + key.repetition(), "progress", progress);
        substitute(group.element(), values);
        substitute(group.tree(), values);
        property(single(group.tree(), "HTTPSamplerProxy"), "HTTPSampler.response_timeout")
                .setTextContent(String.valueOf((run.seconds() + FLOOR_SLACK_SECONDS) * 1000L));
        return group;
    }

    private static final int FLOOR_SLACK_SECONDS = 30;

    /**
     * Puts another check of the body in place of the comparison of the whole body: JMeter's own MD5 assertion for
     * {@link BodyCheck#DIGEST}, a script that compares the body's length for {@link BodyCheck#LENGTH}. (JMeter's size
     * assertion counts the bytes on the wire, chunk headers included, so it cannot tell a chunked palette from a wrong one.)
     */
    private static void replaceWholeBodyCheck(Document plan, Group group, BodyCheck bodyCheck, byte[] expected) {
        NodeList assertions = group.tree().getElementsByTagName("ResponseAssertion");
        for (int i = 0; i < assertions.getLength(); i++) {
            Element assertion = (Element) assertions.item(i);
            if (WHOLE_BODY.equals(assertion.getAttribute("testname"))) {
                Element check;
                if (bodyCheck == BodyCheck.DIGEST) {
                    check = plan.createElement("MD5HexAssertion");
                    check.setAttribute("guiclass", "MD5HexAssertionGUI");
                    check.setAttribute("testclass", "MD5HexAssertion");
                    check.setAttribute("testname", "Body has the palette's MD5");
                    check.appendChild(stringProp(plan, "MD5HexAssertion.size", md5Hex(expected)));
                }
                else {
                    check = plan.createElement("JSR223Assertion");
                    check.setAttribute("guiclass", "TestBeanGUI");
                    check.setAttribute("testclass", "JSR223Assertion");
                    check.setAttribute("testname", "Body is as long as the palette");
                    check.appendChild(stringProp(plan, "scriptLanguage", "groovy"));
                    check.appendChild(stringProp(plan, "parameters", ""));
                    check.appendChild(stringProp(plan, "filename", ""));
                    check.appendChild(stringProp(plan, "cacheKey", "true"));
                    check.appendChild(stringProp(plan, "script", LENGTH_SCRIPT.formatted(expected.length, expected.length)));
                }
                assertion.getParentNode().replaceChild(check, assertion);
                return;
            }
        }
        throw new IllegalStateException("The plan's thread group has no assertion named '" + WHOLE_BODY + "'");
    }

    private static String md5Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static Element stringProp(Document plan, String name, String value) {
        Element property = plan.createElement("stringProp");
        property.setAttribute("name", name);
        property.setTextContent(value);
        return property;
    }

    /** Writes the given values in place of {@code ${__P(name,default)}}; other properties keep their default. */
    static String substitute(String text, Map<String, String> values) {
        Matcher matcher = PROPERTY.matcher(text);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(result, Matcher.quoteReplacement(values.getOrDefault(matcher.group(1), matcher.group(0))));
        }
        return matcher.appendTail(result).toString();
    }

    private static void substitute(Node node, Map<String, String> values) {
        if (node.getNodeType() == Node.TEXT_NODE) {
            node.setNodeValue(substitute(node.getNodeValue(), values));
            return;
        }
        NamedNodeMap attributes = node.getAttributes();
        for (int i = 0; attributes != null && i < attributes.getLength(); i++) {
            attributes.item(i).setNodeValue(substitute(attributes.item(i).getNodeValue(), values));
        }
        NodeList children = node.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            substitute(children.item(i), values);
        }
    }

    /** A thread group and the hashTree of its children, as JMX pairs them. */
    private record Group(Element element, Element tree) {

        /** Finds the first element named {@code tag} in {@code planTree}, with its tree, and removes both from there. */
        static Group takeFrom(Element planTree, String tag) {
            for (Element child = firstElement(planTree); child != null; child = nextElement(child)) {
                if (child.getTagName().equals(tag)) {
                    Element tree = nextElement(child);
                    planTree.removeChild(child);
                    planTree.removeChild(tree);
                    return new Group(child, tree);
                }
            }
            throw new IllegalStateException("No " + tag + " in the plan");
        }

        /**
         * The same requests in an open model of new clients, JMeter's {@code OpenModelThreadGroup}: a thread and a connection for
         * every arrival, the arrivals scheduled as {@code rate(...) random_arrivals(...)}, the pool's arrival timer and its
         * latency from the arrival's due time left out.
         */
        Group asNewClients(Document plan) {
            Element group = plan.createElement("OpenModelThreadGroup");
            group.setAttribute("guiclass", "OpenModelThreadGroupGui");
            group.setAttribute("testclass", "OpenModelThreadGroup");
            group.setAttribute("testname", element.getAttribute("testname"));
            Element controller = plan.createElement("elementProp");
            controller.setAttribute("name", "ThreadGroup.main_controller");
            controller.setAttribute("elementType", "OpenModelThreadGroupController");
            group.appendChild(controller);
            group.appendChild(stringProp(plan, "ThreadGroup.on_sample_error", "continue"));
            group.appendChild(stringProp(plan, "OpenModelThreadGroup.schedule", "rate(${__P(rate,50)}/sec) random_arrivals(${__P(duration,20)} sec)"));
            group.appendChild(stringProp(plan, "OpenModelThreadGroup.random_seed", ""));
            Element children = (Element) plan.importNode(tree, true);
            Element timer = single(children, "JSR223Timer");
            children.removeChild(nextElement(timer));
            children.removeChild(timer);
            // JMeter's own arrivals carry no due time: the latency from it is recorded by the pool only
            Element intended = single(children, "JSR223PostProcessor");
            intended.getParentNode().removeChild(nextElement(intended));
            intended.getParentNode().removeChild(intended);
            return new Group(group, children);
        }

        Group copyInto(Document plan, String name) {
            Element group = (Element) plan.importNode(element, true);
            group.setAttribute("testname", name);
            return new Group(group, (Element) plan.importNode(tree, true));
        }
    }

    private static void append(Element planTree, Group group) {
        planTree.appendChild(group.element());
        planTree.appendChild(group.tree());
    }

    private static void removeThreadGroups(Element planTree) {
        Element child = firstElement(planTree);
        while (child != null) {
            Element next = nextElement(nextElement(child));
            if (child.getTagName().endsWith("ThreadGroup")) {
                planTree.removeChild(nextElement(child));
                planTree.removeChild(child);
            }
            child = next;
        }
    }

    private static Element property(Element element, String name) {
        NodeList properties = element.getElementsByTagName("stringProp");
        for (int i = 0; i < properties.getLength(); i++) {
            if (name.equals(((Element) properties.item(i)).getAttribute("name"))) {
                return (Element) properties.item(i);
            }
        }
        throw new IllegalStateException("The plan's thread group has no " + name);
    }

    private static Element single(Element tree, String tag) {
        NodeList found = tree.getElementsByTagName(tag);
        if (found.getLength() != 1) {
            throw new IllegalStateException("A thread group of the plans must hold exactly one " + tag + ", found " + found.getLength());
        }
        return (Element) found.item(0);
    }

    /** The hashTree holding the test plan's children. */
    private static Element planTree(Document plan) {
        return nextElement(firstElement(firstElement(plan.getDocumentElement())));
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
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString());
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read plan " + file, ex);
        }
    }

    private static Document template(String name) {
        try (InputStream in = PlanWriter.class.getResourceAsStream("/plan/" + name)) {
            return parse(in, name);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static Document parse(InputStream in, String name) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(in);
        }
        catch (Exception ex) {
            throw new IllegalStateException("Cannot parse plan " + name, ex);
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
