package dev.colorbench.benchmark;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import groovy.lang.Closure;
import groovy.lang.GroovyShell;
import org.apache.maven.model.Model;
import org.apache.maven.model.io.xpp3.MavenXpp3Reader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./mvnw jmeter:jmeter} and JMeter's GUI load, by default, the modules plans/side-by-side-targets.groovy reads from
 * the poms when JMeter runs: exactly the build's modules, in its order, each at the port it describes itself with (the
 * port the stack command and docker compose give it). Neither jmeter/pom.xml nor side-by-side.jmx writes the list out,
 * so that a new module needs no edit there.
 */
class JMeterPlansTest {

    private static final Path REPOSITORY = Path.of("..");

    @Test
    void theSideBySidePlanLoadsEveryModuleOfTheBuildAtItsPort() throws Exception {
        Closure<?> read = (Closure<?>) new GroovyShell().evaluate(REPOSITORY.resolve("jmeter/plans/side-by-side-targets.groovy").toFile());
        Map<?, ?> targets = (Map<?, ?>) read.call(REPOSITORY.toFile());

        assertThat(targets.entrySet().stream().map(target -> target.getKey() + ":" + target.getValue()).toList())
                .containsExactlyElementsOf(ModuleCatalog.read(REPOSITORY).modules().stream()
                        .map(module -> module.id() + ":" + module.port()).toList());
        Model jmeter;
        try (Reader pom = Files.newBufferedReader(REPOSITORY.resolve("jmeter/pom.xml"))) {
            jmeter = new MavenXpp3Reader().read(pom);
        }
        assertThat(jmeter.getProperties().getProperty("jmeter.targets")).as("jmeter/pom.xml's jmeter.targets: empty, the poms' list").isEmpty();
        assertThat(Files.readString(REPOSITORY.resolve("jmeter/plans/side-by-side.jmx"))).as("side-by-side.jmx holds no list of its own")
                .doesNotContain("\"targets\"", ":8080");
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
                .contains("side-by-side-targets.groovy", "'not running'", "No module answers GET", "ctx.engine.stopTest(true)", "props.put('side.failed'", "Arrays.equals(body, expected)");
        assertThat(Files.readString(plans.resolve("side-by-side-table.groovy")))
                .contains("side-by-side-targets.groovy", "props.getProperty('side.failed')", "Runtime.runtime.halt(1)", "statistics.json");
        assertThat(Files.readString(REPOSITORY.resolve("jmeter/pom.xml")))
                .contains("<jsr223.init.file>${project.basedir}/plans/side-by-side-table.groovy</jsr223.init.file>",
                        "<jmeter.reportgenerator.sample_filter>^(?!warm-up ).*$</jmeter.reportgenerator.sample_filter>");
    }
}
