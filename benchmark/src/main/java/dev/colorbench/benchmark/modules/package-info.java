/**
 * Which modules there are and how each describes itself: the list of {@code modules/pom.xml} and
 * the {@code colorbench.*} properties of each module's own pom (port, stack, role, data store,
 * source-post figure, variants). A new module is found here as soon as it is in that list.
 */
package dev.colorbench.benchmark.modules;
