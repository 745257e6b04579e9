package dev.colorbench.hashrepository;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.core.redis.Healing;
import dev.colorbench.core.redis.RedisReplies;
import dev.colorbench.core.web.ColorStore;

import org.springframework.core.convert.ConversionException;
import org.springframework.dao.DataAccessException;
import org.springframework.data.mapping.MappingException;
import org.springframework.data.mapping.model.MappingInstantiationException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * A Spring Data {@code @RedisHash} repository. {@code findAll()} reads the id set, then each
 * hash in turn: one {@code GET /colors} costs <b>1 SMEMBERS + 148 HGETALL</b>, 149 round trips.
 * A subset uses {@code findAllById}, one HGETALL per distinct name. Redis returns set members
 * in no particular order, so the answer is put back into palette order here.
 *
 * <p>Seeding is {@code saveAll}: for each color a DEL and an HMSET, and an SADD of its id
 * where the hash was not there yet.
 *
 * <p>A read never serves a partial list or a color that is not readable for its name
 * ({@link ColorCodec#isReadable}). When the usual read does not give every name asked for
 * once, readable, it looks closer, on that slow path only:
 * <ul>
 * <li>The repository fails on a hash it cannot map (a field that is not a number, fields
 * missing) or on a key of another type ({@code WRONGTYPE}); then every name asked for is
 * read by itself, one HGETALL each, to find the bad ones.</li>
 * <li>The repository answers without some names (a hash gone, a hash under another color's
 * name, an id missing from the set): 1 EXISTS of their keys; if any is there, one HGETALL per
 * such name tells which. For a hash gone while its id is still in the set {@code findAll} answers
 * null: on one server that happens only if someone deletes a hash, on a cluster whenever the master
 * holding some hashes restarted empty and the one holding the set did not.</li>
 * </ul>
 * Only the affected colors are written back from the palette ({@code saveAll} of just those:
 * DEL and HMSET each, and SADD for a hash that was not there); a readable hash whose id was
 * missing from the set gets its id back with one SADD and is left as it is. An unreadable hash
 * is a warning naming its key. If {@code findAll} failed and no hash was to blame, the id set
 * itself is not a set: it is deleted, with a warning, and every id added back with one SADD.
 * A write Redis refuses (memory full) is logged and the palette's answer stands.
 */
@Component
class RedisHashRepositoryColorStore implements ColorStore, ColorSeeder {

    private final ColorHashRepository repository;

    private final StringRedisTemplate redis;

    RedisHashRepositoryColorStore(ColorHashRepository repository, StringRedisTemplate redis) {
        this.repository = repository;
        this.redis = redis;
    }

    @Override
    public List<Color> findAll() {
        return read(Palette.names(), repository::findAll, true);
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        List<String> distinct = names.stream().distinct().toList();
        return read(names, () -> repository.findAllById(distinct), false);
    }

    private List<Color> read(List<String> names, Supplier<Iterable<ColorHash>> query, boolean throughIdSet) {
        Map<String, Color> readable = new HashMap<>();
        boolean failed = false;
        try {
            Set<String> doubtful = new HashSet<>();
            for (ColorHash hash : query.get()) {
                if (hash == null) {
                    // an id in the set whose hash is gone: Spring Data answers null for it, and the name is missing below
                    continue;
                }
                Color color = hash.toColor();
                if (!ColorCodec.isReadable(hash.name(), color) || readable.putIfAbsent(hash.name(), color) != null) {
                    doubtful.add(hash.name());
                }
            }
            readable.keySet().removeAll(doubtful);
        }
        catch (RuntimeException ex) {
            if (!isUnreadableHash(ex)) {
                throw ex;
            }
            failed = true;
        }
        if (!failed && readable.keySet().containsAll(names)) {
            return names.stream().map(readable::get).toList();
        }
        return heal(names, readable, failed, failed && throughIdSet);
    }

    /** What one hash read by itself holds: a readable color, nothing, or something unreadable. */
    private record Alone(Color readable, boolean there) {

        static final Alone MISSING = new Alone(null, false);

        static final Alone UNREADABLE = new Alone(null, true);
    }

    /**
     * The slow path. {@code readable} holds what the usual read returned that can be trusted
     * (a name returned twice cannot be, since a hash says its own name); every other name asked
     * for is looked at by itself. If the usual read {@code failed}, a hash found readable alone
     * is fine as it is; if the read just did not return it, its id is missing from the id set.
     */
    private List<Color> heal(List<String> names, Map<String, Color> readable, boolean failed, boolean idSetSuspect) {
        List<String> unconfirmed = names.stream().distinct().filter(name -> !readable.containsKey(name)).toList();
        boolean anyThere = redis.countExistingKeys(unconfirmed.stream().map(ColorKeys::hashKey).toList()) > 0;
        List<String> unreadable = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<String> unlisted = new ArrayList<>();
        for (String name : unconfirmed) {
            Alone alone = anyThere ? readAlone(name) : Alone.MISSING;
            if (alone.readable() != null) {
                readable.put(name, alone.readable());
                if (!failed) {
                    unlisted.add(name);
                }
            }
            else if (alone.there()) {
                unreadable.add(name);
            }
            else {
                missing.add(name);
            }
        }
        unreadable.forEach(name -> Healing.unreadable(ColorKeys.hashKey(name)));
        Healing.missing(missing.stream().map(ColorKeys::hashKey).toList());
        List<ColorHash> fromPalette = new ArrayList<>();
        Palette.colors(missing).forEach(color -> fromPalette.add(ColorHash.of(color)));
        Palette.colors(unreadable).forEach(color -> fromPalette.add(ColorHash.of(color)));
        if (idSetSuspect && unreadable.isEmpty()) {
            rebuildIdSet(fromPalette);
        }
        else {
            write(fromPalette, unlisted, true);
        }
        return names.stream().map(name -> readable.containsKey(name) ? readable.get(name) : Palette.find(name).orElseThrow()).toList();
    }

    private Alone readAlone(String name) {
        try {
            Optional<Color> found = repository.findById(name).map(ColorHash::toColor);
            if (found.isEmpty()) {
                return Alone.MISSING;
            }
            return ColorCodec.isReadable(name, found.get()) ? new Alone(found.get(), true) : Alone.UNREADABLE;
        }
        catch (RuntimeException ex) {
            if (!isUnreadableHash(ex)) {
                throw ex;
            }
            return Alone.UNREADABLE;
        }
    }

    /**
     * Saves {@code hashes} and adds {@code ids} to the id set. Spring Data's {@code save} adds an
     * id only for a hash that was not there (its DEL removed nothing), so an id missing beside a
     * readable hash is added here, one SADD, the hash left untouched. An SADD that fails with
     * {@code WRONGTYPE} means the id set is not a set; a write Redis refuses leaves the read
     * answered from the palette.
     */
    private void write(List<ColorHash> hashes, List<String> ids, boolean mayRebuildIdSet) {
        try {
            if (!hashes.isEmpty()) {
                repository.saveAll(hashes);
            }
            if (!ids.isEmpty()) {
                redis.opsForSet().add(ColorKeys.HASH_KEYSPACE, ids.toArray(String[]::new));
            }
        }
        catch (DataAccessException ex) {
            if (mayRebuildIdSet && RedisReplies.isWrongType(ex)) {
                rebuildIdSet(hashes);
            }
            else if (RedisReplies.isRefusedWrite(ex)) {
                Healing.writeRefused(hashes.size() + ids.size(), ex);
            }
            else {
                throw ex;
            }
        }
    }

    /** Deletes an id set that is not a set, saves {@code hashes}, and adds every id back with one SADD. */
    private void rebuildIdSet(List<ColorHash> hashes) {
        Healing.unreadable(ColorKeys.HASH_KEYSPACE);
        redis.delete(ColorKeys.HASH_KEYSPACE);
        write(hashes, Palette.names(), false);
    }

    /**
     * What Spring Data throws for one hash it cannot turn into a {@link ColorHash}: a field it
     * cannot convert, a record component it has no field for, or a key of another type.
     */
    private static boolean isUnreadableHash(RuntimeException ex) {
        return ex instanceof ConversionException || ex instanceof MappingInstantiationException || ex instanceof MappingException
                || RedisReplies.isWrongType(ex);
    }

    @Override
    public void seed() {
        repository.saveAll(Palette.all().stream().map(ColorHash::of).toList());
    }
}
