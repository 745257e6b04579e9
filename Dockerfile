# One image per module, from this one file: docker build --build-arg MODULE=template-mget .
# (docker-compose.yml builds every module this way.)
ARG JAVA_VERSION=17

FROM eclipse-temurin:${JAVA_VERSION}-jdk AS build
ARG MODULE
WORKDIR /src
COPY . .
# the module and what it needs (color-core); the tests ran in the normal build, not in images,
# and the jmeter module (JMeter's installation) is not among what it needs
RUN --mount=type=cache,target=/root/.m2 \
    test -n "${MODULE}" && test -d "modules/${MODULE}" \
    && ./mvnw -B -q -pl "modules/${MODULE}" -am package -DskipTests \
    && cp "modules/${MODULE}/target/${MODULE}-"*-SNAPSHOT.jar /app.jar

FROM eclipse-temurin:${JAVA_VERSION}-jre
ARG MODULE
# the JVM options the benchmark's full run gives every module it starts itself (benchmark.jvmArgs; DockerComposeTest
# keeps the two in step), so that figures taken against these containers compare with the benchmark's. Every
# module's heap is 1 GB (docs/measuring.md#jvm-options): docker run -e JAVA_OPTS=... gives smaller heaps where that does not fit.
ENV JAVA_OPTS="-Xms1g -Xmx1g -XX:+UseParallelGC" \
    MODULE=${MODULE}
RUN useradd --system --no-create-home colorbench
USER colorbench
COPY --from=build /app.jar /app.jar
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app.jar"]
