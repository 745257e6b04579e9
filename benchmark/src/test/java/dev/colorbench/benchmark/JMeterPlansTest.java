package dev.colorbench.benchmark;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import org.apache.maven.model.Model;
import org.apache.maven.model.io.xpp3.MavenXpp3Reader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./mvnw jmeter:jmeter} loads the modules jmeter/pom.xml lists in {@code benchmark.targets}: exactly the
 * build's modules, in its order, each at the port it describes itself with (the port the stack command and
 * docker compose give it). side-by-side.jmx holds the same list, which a run from JMeter's GUI loads.
 */
class JMeterPlansTest {

    private static final Path REPOSITORY = Path.of("..");

    @Test
    void theSideBySidePlanLoadsEveryModuleOfTheBuildAtItsPort() throws Exception {
        Model jmeter;
        try (Reader pom = Files.newBufferedReader(REPOSITORY.resolve("jmeter/pom.xml"))) {
            jmeter = new MavenXpp3Reader().read(pom);
        }

        assertThat(jmeter.getProperties().getProperty("benchmark.targets").split(","))
                .containsExactlyElementsOf(ModuleCatalog.read(REPOSITORY).modules().stream()
                        .map(module -> module.id() + ":" + module.port()).toList());
        assertThat(Files.readString(REPOSITORY.resolve("jmeter/plans/side-by-side.jmx")))
                .contains("<stringProp name=\"Argument.value\">" + jmeter.getProperties().getProperty("benchmark.targets") + "</stringProp>");
    }

    @Test
    void theSideBySidePlanAsksEveryModuleBeforeLoadingAndChecksEveryAnswerUnderLoad() throws Exception {
        Path plans = REPOSITORY.resolve("jmeter/plans");
        assertThat(Files.readString(plans.resolve("side-by-side.jmx")))
                .contains("<SetupThreadGroup", "side-by-side.groovy", "ctx.engine.stopTest(true)", "SampleResult.setIgnore()")
                .contains("Assertion.response_code", "<MD5HexAssertion", "${__P(side.md5,)}")
                .contains("testname=\"warm-up ${__P(side.module.${__jm__modules__idx},)}\"", "testname=\"${__P(side.module.${__jm__modules__idx},)}\"")
                .doesNotContain("ResultCollector");
        assertThat(Files.readString(plans.resolve("side-by-side.groovy")))
                .contains("'not running'", "No module answers GET", "ctx.engine.stopTest(true)", "props.put('side.failed'", "Arrays.equals(body, expected)");
        assertThat(Files.readString(plans.resolve("side-by-side-table.groovy")))
                .contains("props.getProperty('side.failed')", "Runtime.runtime.halt(1)", "statistics.json");
        assertThat(Files.readString(REPOSITORY.resolve("jmeter/pom.xml")))
                .contains("<jsr223.init.file>${project.basedir}/plans/side-by-side-table.groovy</jsr223.init.file>",
                        "<jmeter.reportgenerator.sample_filter>^(?!warm-up ).*$</jmeter.reportgenerator.sample_filter>");
    }
}
