package com.example.colors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.convert.ConversionException;
import org.springframework.dao.DataAccessException;
import org.springframework.data.mapping.MappingException;
import org.springframework.data.mapping.model.MappingInstantiationException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The pattern: one GET /colors is the repository's findAll(), 1 SMEMBERS of the id set colors::v2, then 1 HGETALL per
 * id: 149 commands and 149 round trips, one after another, since Spring Data reads each hash by itself. Redis returns
 * set members in no order, so the answer is put back in the source's order.
 *
 * <p>Healing is most of the code: one hash Spring Data cannot map fails the whole findAll(), and a hash gone, a hash
 * under another color's name or an id gone from the set only leaves a name out. So each name the read did not give
 * once and whole is read by itself, after 1 EXISTS tells whether any of their hashes is there at all. What is missing
 * or unreadable is answered from the {@link ColorSource} and saved again; a whole hash whose id left the set gets its
 * id back with 1 SADD.
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    private static final String ID_SET = "colors::v2";

    private final ColorHashRepository repository;

    private final StringRedisTemplate redis;

    private final ColorSource source;

    private final List<String> names;

    ColorStore(ColorHashRepository repository, StringRedisTemplate redis, ColorSource source) {
        this.repository = repository;
        this.redis = redis;
        this.source = source;
        this.names = source.names();
    }

    List<Color> findAll() {
        Map<String, Color> found = new HashMap<>();
        boolean failed = false;
        try {
            Set<String> doubtful = new HashSet<>();
            for (ColorHash hash : repository.findAll()) {
                if (hash == null) {
                    continue;   // an id in the set whose hash is gone: its name is missing below
                }
                if (!hash.isColor(hash.name()) || found.putIfAbsent(hash.name(), hash.toColor()) != null) {
                    doubtful.add(hash.name());   // a hash says its own name: twice, one of them is another color's
                }
            }
            found.keySet().removeAll(doubtful);
        }
        catch (RuntimeException ex) {
            if (!isUnreadable(ex)) {
                throw ex;
            }
            failed = true;
        }
        if (!failed && found.keySet().containsAll(names)) {
            return names.stream().map(found::get).toList();
        }
        return heal(found, failed);
    }

    /**
     * The slow path. After a failed findAll() a hash that is whole alone is fine as it is; after a findAll() that left
     * it out, its id is missing from the set. A findAll() that failed with no hash to blame means the id set itself is
     * not a set: it is deleted and written again with every id.
     */
    private List<Color> heal(Map<String, Color> found, boolean failed) {
        List<String> unconfirmed = names.stream().filter(name -> !found.containsKey(name)).toList();
        boolean anyThere = redis.countExistingKeys(unconfirmed.stream().map(ColorStore::hashKey).toList()) > 0;
        List<ColorHash> fromSource = new ArrayList<>();
        List<String> unlisted = new ArrayList<>();
        boolean anyUnreadable = false;
        for (String name : unconfirmed) {
            Optional<ColorHash> alone = Optional.empty();
            boolean unreadable = false;
            if (anyThere) {
                try {
                    alone = repository.findById(name);
                    unreadable = alone.isPresent() && !alone.get().isColor(name);
                }
                catch (RuntimeException ex) {
                    if (!isUnreadable(ex)) {
                        throw ex;
                    }
                    unreadable = true;
                }
            }
            if (unreadable) {
                log.warn("Unreadable hash {} in Redis, written again", hashKey(name));
                anyUnreadable = true;
                fromSource.add(ColorHash.of(source.find(name)));
            }
            else if (alone.isPresent()) {
                found.put(name, alone.get().toColor());
                if (!failed) {
                    unlisted.add(name);
                }
            }
            else {
                fromSource.add(ColorHash.of(source.find(name)));
            }
        }
        if (failed && !anyUnreadable) {
            log.warn("The id set {} in Redis is not a set, written again", ID_SET);
            save(true, fromSource, names);
        }
        else {
            save(false, fromSource, unlisted);
        }
        return names.stream().map(name -> found.containsKey(name) ? found.get(name) : source.find(name)).toList();
    }

    /** A write Redis refuses (memory full) leaves the answer standing; the next read tries again. */
    private void save(boolean newIdSet, List<ColorHash> hashes, List<String> ids) {
        try {
            if (newIdSet) {
                redis.delete(ID_SET);
            }
            if (!hashes.isEmpty()) {
                repository.saveAll(hashes);   // per hash DEL and HMSET, and SADD of its id where it was not there
            }
            if (!ids.isEmpty()) {
                redis.opsForSet().add(ID_SET, ids.toArray(String[]::new));
            }
        }
        catch (DataAccessException ex) {
            log.warn("Could not write {} colors back to Redis: {}", hashes.size() + ids.size(), ex.getMessage());
        }
    }

    private static String hashKey(String name) {
        return ID_SET + ":" + name;
    }

    /** What Spring Data throws for a hash it cannot map (a field that is not a number, fields gone) or a key of another type. */
    private static boolean isUnreadable(RuntimeException ex) {
        if (ex instanceof ConversionException || ex instanceof MappingException || ex instanceof MappingInstantiationException) {
            return true;
        }
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().startsWith("WRONGTYPE")) {
                return true;
            }
        }
        return false;
    }
}
