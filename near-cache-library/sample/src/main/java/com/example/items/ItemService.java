package com.example.items;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.colorbench.redis.nearcache.NearRedisCache;

import org.springframework.cache.Cache;
import org.springframework.cache.Cache.ValueWrapper;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

@Service
public class ItemService {

    private final Map<String, Item> database = new ConcurrentHashMap<>(); // stands for yours

    private final Cache items; // a NearRedisCache with the near cache manager, a RedisCache with Spring Boot's

    public ItemService(CacheManager cacheManager) {
        this.items = cacheManager.getCache("items");
    }

    @Cacheable("items") // key items::<id>; warm, no command
    public Item find(String id) {
        return database.get(id);
    }

    @CachePut(cacheNames = "items", key = "#item.id()") // 1 SET; this instance's next read sees it
    public Item save(Item item) {
        database.put(item.id(), item);
        return item;
    }

    @CacheEvict("items") // 1 DEL
    public void delete(String id) {
        database.remove(id);
    }

    /** Many at once: the ids the copy lacks in one MGET; those Redis lacks too from the database, and cached. */
    public List<Item> findAll(List<String> ids) {
        // NearRedisCache.getAll takes the cache's keys (the ids), as @Cacheable does; with another manager, one read each
        List<ValueWrapper> cached = (items instanceof NearRedisCache near) ? near.getAll(ids) : ids.stream().map(items::get).toList();
        List<Item> found = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            ValueWrapper held = cached.get(i);
            Item item = (held != null) ? (Item) held.get() : database.get(ids.get(i));
            if (held == null) {
                items.put(ids.get(i), item);
            }
            found.add(item);
        }
        return found;
    }
}
