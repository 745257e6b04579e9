package dev.colorbench.core.web;

import java.io.IOException;
import java.io.Writer;

import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;

import org.springframework.http.HttpStatus;

/**
 * Tomcat answers some bad requests itself, before Spring sees them (an encoded slash or a
 * {@code ..} that climbs out of the root, in the path): with this valve they get an RFC 9457
 * problem body like every other error, instead of Tomcat's HTML page. Nothing of the request
 * is echoed back.
 */
class ProblemErrorReportValve extends ErrorReportValve {

    /** Replaces the host's error report valve, including the one Spring Boot adds. */
    static void install(StandardHost host) {
        for (Valve valve : host.getPipeline().getValves()) {
            if (valve instanceof ErrorReportValve) {
                host.getPipeline().removeValve(valve);
            }
        }
        host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
        host.getPipeline().addValve(new ProblemErrorReportValve());
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = (known != null) ? known.getReasonPhrase() : "Error";
        try {
            response.setContentType("application/problem+json");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"detail\":\"The server refused the request before it reached the application.\","
                        + "\"status\":" + status + ",\"title\":\"" + title + "\"}");
                response.finishResponse();
            }
        }
        catch (IOException | IllegalStateException ex) {
            // the connection is already unusable; Tomcat closes it
        }
    }
}
