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
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The floor: the cheapest correct read of the palette this project knows. One {@code GET /colors} costs
 * <b>1 MGET</b> of all 148 {@code colors::v3::<name>} keys, one round trip, as in mget-raw, and its reply
 * becomes the answer the same way (the core's {@link RawJsonColors}). What differs is the way there:
 * <ul>
 * <li>Jedis, not Lettuce: the request thread writes the MGET and reads the reply itself, with no hand-off
 * to an event loop and back.</li>
 * <li>Jedis's pooled client itself, not a Spring Data connection opened and closed around each read.</li>
 * <li>The MGET of the whole palette built once, at start-up, and sent as it is.</li>
 * </ul>
 * A subset costs 1 MGET of just those keys, one color 1 MGET of its key. Healing and seeding go through
 * the template, as in mget-raw. What each choice gives: modules/mget-floor/README.md. The variants in the
 * module's pom put each one back ({@code colorbench.floor.read=connection}, {@code colorbench.floor.built-once=false}).
 *
 * <p><b>On a Redis Cluster</b> Jedis's cluster client sends one MGET per slot, pipelined to each master:
 * <b>148 MGETs</b> in one round trip per master for the plain keys, or <b>1 MGET</b> on one master when every
 * key shares a hash tag ({@code colorbench.redis.hash-tag=true}).
 */
@Component
class MgetFloorColorStore implements EncodedColorStore, ColorSeeder {

    private final RedisTemplate<String, byte[]> template;

    private final JedisConnectionFactory connectionFactory;

    private final RawJsonColors colors;

    /** Jedis's pooled client inside the connection factory (a cluster client on a cluster); null when told to read through Spring Data. */
    private final UnifiedJedis client;

    private final boolean cluster;

    /** The MGET of the whole palette, built once; null when told to build it per request, or on a cluster. */
    private final CommandObject<List<byte[]>> mgetAll;

    MgetFloorColorStore(RedisTemplate<String, byte[]> colorTemplate, JedisConnectionFactory connectionFactory, ColorCodec codec,
            JsonKeys keys, @Value("${colorbench.floor.read:jedis}") String read,
            @Value("${colorbench.floor.built-once:true}") boolean builtOnce) {
        this.template = colorTemplate;
        this.connectionFactory = connectionFactory;
        this.colors = new RawJsonColors(colorTemplate, codec, keys);
        this.cluster = connectionFactory.isRedisClusterAware();
        this.client = (read.equals("jedis") || cluster) ? pooledClient(connectionFactory) : null;
        this.mgetAll = (builtOnce && !cluster) ? mgetCommand(colors.allKeys()) : null;
    }

    @Override
    public byte[] findAll() {
        return colors.allAsArray((mgetAll != null && client != null) ? read(jedis -> jedis.executeCommand(mgetAll)) : mget(colors.allKeys()));
    }

    @Override
    public byte[] findByNames(List<String> names) {
        return colors.asArray(names, mget(colors.keys(names)));
    }

    @Override
    public byte[] findOne(String name) {
        return colors.one(name, mget(colors.keys(List.of(name))));
    }

    @Override
    public void seed() {
        colors.seed();
    }

    private List<byte[]> mget(byte[][] keys) {
        if (cluster) {
            return read(jedis -> mgetPerSlot(jedis, keys));
        }
        if (client != null) {
            return read(jedis -> jedis.mget(keys));
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
        byte[][] values = new byte[keys.length][];
        try (AbstractPipeline pipeline = jedis.pipelined()) {
            Map<List<Integer>, Response<List<byte[]>>> replies = new LinkedHashMap<>();
            for (List<Integer> positions : bySlot.values()) {
                replies.put(positions, pipeline.mget(positions.stream().map(i -> keys[i]).toArray(byte[][]::new)));
            }
            pipeline.sync();
            replies.forEach((positions, reply) -> {
                List<byte[]> got = replyOf(reply);
                for (int j = 0; j < positions.size(); j++) {
                    values[positions.get(j)] = got.get(j);
                }
            });
        }
        return Arrays.asList(values);
    }

    /**
     * What a pipelined MGET answered. A master that cannot be reached leaves its replies unset after the
     * pipeline's sync (Jedis logs the failure, and {@code get} throws): that is Redis unavailable, not a bug.
     */
    private static List<byte[]> replyOf(Response<List<byte[]>> reply) {
        try {
            return reply.get();
        }
        catch (IllegalStateException ex) {
            throw new JedisConnectionException("A master answered none of its MGETs", ex);
        }
    }

    /** A read on Jedis's client, its failures translated as Spring Data translates them: a lost Redis is a 503. */
    private List<byte[]> read(Function<UnifiedJedis, List<byte[]>> command) {
        try {
            return command.apply(client);
        }
        catch (JedisException ex) {
            DataAccessException translated = connectionFactory.translateExceptionIfPossible(ex);
            throw (translated != null) ? translated : new RedisSystemException("Jedis failed", ex);
        }
    }

    private static CommandObject<List<byte[]>> mgetCommand(byte[][] keys) {
        return new CommandObject<>(new CommandArguments(Protocol.Command.MGET).keys((Object[]) keys), BuilderFactory.BINARY_LIST);
    }

    /**
     * The factory's own pooled client: with Jedis 7, Spring Data's connections all wrap one {@link UnifiedJedis}
     * that borrows a pooled connection per command, so reading on it directly uses the same pool and settings.
     */
    private static UnifiedJedis pooledClient(JedisConnectionFactory connectionFactory) {
        try (RedisConnection connection = cluster(connectionFactory) ? connectionFactory.getClusterConnection() : connectionFactory.getConnection()) {
            if (connection.getNativeConnection() instanceof UnifiedJedis unified) {
                return unified;
            }
            throw new IllegalStateException("Spring Data's Jedis connection is not on a pooled UnifiedJedis but on "
                    + connection.getNativeConnection().getClass().getName());
        }
    }

    private static boolean cluster(JedisConnectionFactory connectionFactory) {
        return connectionFactory.isRedisClusterAware();
    }
}
