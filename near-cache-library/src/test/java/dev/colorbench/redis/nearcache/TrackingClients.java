package dev.colorbench.redis.nearcache;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The connections Redis lists with the tracking flag ({@code t}) in {@code CLIENT LIST}: what the tests freeze or kill. */
final class TrackingClients {

    private static final Pattern CLIENT = Pattern.compile("^id=(\\d+) .*\\baddr=(\\S+) .*\\bflags=(\\S*t\\S*) .*$", Pattern.MULTILINE);

    private TrackingClients() {
    }

    /** Each tracking connection's address as Redis sees it (a proxy's end, when the application reaches Redis through one). */
    static List<String> addresses(String clientList) {
        return groups(clientList, 2);
    }

    /** Each tracking connection's id, for {@code CLIENT KILL ID}. */
    static List<String> ids(String clientList) {
        return groups(clientList, 1);
    }

    private static List<String> groups(String clientList, int group) {
        List<String> found = new ArrayList<>();
        Matcher client = CLIENT.matcher(clientList);
        while (client.find()) {
            found.add(client.group(group));
        }
        return found;
    }
}
