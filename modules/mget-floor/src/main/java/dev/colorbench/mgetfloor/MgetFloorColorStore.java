package dev.colorbench.mgetfloor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.JsonKeys;
import dev.colorbench.core.redis.RawJsonColors;
import dev.colorbench.core.web.EncodedColorStore;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.util.JedisClusterCRC16;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The floor: the cheapest correct read of the palette this project knows that asks Redis on every request. One
 * {@code GET /colors} costs <b>1 MGET</b> of all 148 {@code colors::v3::<name>} keys, one round trip, as in mget-raw, and its reply
 * becomes the answer the same way (the core's {@link RawJsonColors}). What differs is the way there:
 * <ul>
 * <li>Jedis, not Lettuce: the request thread writes the MGET and reads the reply itself, with no hand-off
 * to an event loop and back.</li>
 * <li>Jedis's pooled client itself, not a Spring Data connection opened and closed around each read.</li>
 * <li>The MGET of the whole palette built once, at start-up, and sent as it is.</li>
 * </ul>
 * A subset costs 1 MGET of just those keys, one color 1 MGET of its key. Healing and seeding go through
 * the template, as in mget-raw. What each choice gives: modules/mget-floor/README.md. The variants in the
 * module's pom take them away one at a time, on one Redis server: {@code colorbench.floor.built-once=false} the command
 * built once, {@code colorbench.floor.read=connection} also Jedis's client (a Spring Data connection per read).
 *
 * <p><b>On a Redis Cluster</b> Jedis's cluster client sends one MGET per slot, pipelined to each master:
 * <b>148 MGETs</b> in one round trip per master for the plain keys, or <b>1 MGET</b> on one master when every
 * key shares a hash tag ({@code colorbench.redis.hash-tag=true}).
 */
@Component
class MgetFloorColorStore implements EncodedColorStore, ColorSeeder {

    private final RedisTemplate<String, byte[]> template;

    private final RawJsonColors colors;

    /** Jedis's pooled client inside the connection factory (its cluster client on a cluster); null when told to read through Spring Data. */
    private final UnifiedJedis client;

    private final boolean cluster;

    /** The MGET of the whole palette, built once; null when told to build it per request, or on a cluster. */
    private final CommandObject<List<byte[]>> mgetAll;

    MgetFloorColorStore(RedisTemplate<String, byte[]> colorTemplate, JedisConnectionFactory connectionFactory, ColorCodec codec,
            JsonKeys keys, @Value("${colorbench.floor.read:jedis}") String read,
            @Value("${colorbench.floor.built-once:true}") boolean builtOnce) {
        this.template = colorTemplate;
        this.colors = new RawJsonColors(colorTemplate, codec, keys);
        if (!read.equals("jedis") && !read.equals("connection")) {
            throw new IllegalArgumentException("colorbench.floor.read is jedis or connection, not '" + read + "'");
        }
        this.cluster = connectionFactory.isRedisClusterAware();
        this.client = (read.equals("jedis") || cluster) ? pooledClient(connectionFactory) : null;
        this.mgetAll = (builtOnce && !cluster) ? mgetCommand(colors.allKeys()) : null;
    }

    @Override
    public byte[] findAll() {
        if (mgetAll != null && client != null) {
            return colors.allAsArray(read(client, jedis -> jedis.executeCommand(mgetAll)));
        }
        return colors.allAsArray(mget(colors.allKeys()));
    }

    @Override
    public byte[] findByNames(List<String> names) {
        return colors.asArray(names, mget(colors.keysOf(names)));
    }

    @Override
    public byte[] findOne(String name) {
        return colors.one(name, mget(colors.keysOf(List.of(name))));
    }

    @Override
    public void seed() {
        colors.seed();
    }

    private List<byte[]> mget(byte[][] keys) {
        if (cluster) {
            return read(client, jedis -> mgetPerSlot(jedis, keys));
        }
        if (client != null) {
            return read(client, jedis -> jedis.mget(keys));
        }
        return template.execute((RedisCallback<List<byte[]>>) connection -> connection.stringCommands().mGet(keys));
    }

    /** One MGET per slot, all in one pipeline: Jedis sends each master its MGETs together and reads their replies. */
    private static List<byte[]> mgetPerSlot(UnifiedJedis jedis, byte[][] keys) {
        Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
        for (int i = 0; i < keys.length; i++) {
            bySlot.computeIfAbsent(JedisClusterCRC16.getSlot(keys[i]), slot -> new ArrayList<>()).add(i);
        }
        if (bySlot.size() == 1) {
            return jedis.mget(keys);
        }
        Map<List<Integer>, Response<List<byte[]>>> replies = new LinkedHashMap<>();
        try (AbstractPipeline pipeline = jedis.pipelined()) {
            for (List<Integer> positions : bySlot.values()) {
                replies.put(positions, pipeline.mget(keysAt(keys, positions)));
            }
        }
        byte[][] values = new byte[keys.length][];
        replies.forEach((positions, reply) -> {
            List<byte[]> got = replyOf(jedis, keysAt(keys, positions), reply);
            for (int j = 0; j < positions.size(); j++) {
                values[positions.get(j)] = got.get(j);
            }
        });
        return Arrays.asList(values);
    }

    private static byte[][] keysAt(byte[][] keys, List<Integer> positions) {
        return positions.stream().map(i -> keys[i]).toArray(byte[][]::new);
    }

    /**
     * What a pipelined MGET answered. A master that cannot be reached leaves its replies unset when the pipeline
     * closes (Jedis logs the failure, and {@code get} throws): that is Redis unavailable, not a bug. A slot that has
     * moved (MOVED, ASK) is read again on its own, by the cluster client, which follows the redirection and renews
     * its map of the slots.
     */
    private static List<byte[]> replyOf(UnifiedJedis jedis, byte[][] keys, Response<List<byte[]>> reply) {
        try {
            return reply.get();
        }
        catch (JedisRedirectionException ex) {
            return jedis.mget(keys);
        }
        catch (IllegalStateException ex) {
            throw new JedisConnectionException("A master answered none of its MGETs", ex);
        }
    }

    /**
     * A read on Jedis's client. Every failure of it is Redis failing, a 503: an error reply (LOADING, BUSY, CLUSTERDOWN)
     * as Lettuce's rows get it, and any other Jedis failure (no connection, a time-out, the pool empty for 200 ms, a
     * cluster out of retries) as the connection failing. Spring Data's translation would make some of them a misuse of
     * its API, a 500.
     */
    private static List<byte[]> read(UnifiedJedis client, Function<UnifiedJedis, List<byte[]>> command) {
        try {
            return command.apply(client);
        }
        catch (JedisDataException ex) {
            throw new RedisSystemException("Redis answered an error", ex);
        }
        catch (JedisException ex) {
            throw new RedisConnectionFailureException("Redis connection failed", ex);
        }
    }

    private static CommandObject<List<byte[]>> mgetCommand(byte[][] keys) {
        CommandArguments arguments = new CommandArguments(Protocol.Command.MGET);
        for (byte[] key : keys) {
            arguments.key(key);
        }
        return new CommandObject<>(arguments, BuilderFactory.BINARY_LIST);
    }

    /**
     * The factory's own pooled client (its cluster client on a cluster, whatever {@code colorbench.floor.read} says):
     * with Jedis 7, Spring Data's connections all wrap one {@link UnifiedJedis}
     * that borrows a pooled connection per command, so reading on it directly uses the same pool and settings.
     */
    private static UnifiedJedis pooledClient(JedisConnectionFactory connectionFactory) {
        boolean cluster = connectionFactory.isRedisClusterAware();
        try (RedisConnection connection = cluster ? connectionFactory.getClusterConnection() : connectionFactory.getConnection()) {
            if (connection.getNativeConnection() instanceof UnifiedJedis unified) {
                return unified;
            }
            throw new IllegalStateException("Spring Data's Jedis connection is not on a pooled UnifiedJedis but on "
                    + connection.getNativeConnection().getClass().getName());
        }
    }
}
