package com.example.colors;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * The pattern: one GET /colors is 148 GETs of colors::v1::&lt;name&gt;, one cached lookup per color, all started before
 * any is awaited. They are in flight together on Lettuce's one connection, and with flushes consolidated
 * ({@link LettuceSettings}) Redis reads most of them at once: a few round trips for the 148, not 148. A color missing
 * from the cache is loaded from the {@link ColorSource} and stored, GET + SET, and so is an unreadable one
 * ({@link ColorCache}).
 */
@Component
class ColorStore {

    private static final Logger log = LoggerFactory.getLogger(ColorStore.class);

    private final AsyncColorLookup lookup;

    private final List<String> names;

    ColorStore(AsyncColorLookup lookup, ColorSource source) {
        this.lookup = lookup;
        this.names = source.names();
    }

    List<Color> findAll() {
        List<CompletableFuture<Color>> lookups = new ArrayList<>(names.size());
        for (String name : names) {
            lookups.add(lookup.findByName(name));
        }
        try {
            CompletableFuture.allOf(lookups.toArray(CompletableFuture[]::new)).join();
        }
        catch (CompletionException ex) {
            throw (ex.getCause() instanceof RuntimeException cause) ? cause : ex;   // a Redis failure, for the 503 handler
        }
        return lookups.stream().map(CompletableFuture::join).toList();
    }

    /**
     * One read before the first request, which fills an empty cache and loads what a lookup runs on Lettuce's event
     * loop. Cold, that work delays the replies of the first request's 148 GETs, and on a busy host their 500 ms
     * time-outs expire: a 503. A Redis that is away now is logged, and requests read it when it is back.
     */
    @EventListener(ApplicationReadyEvent.class)
    void readOnceAtStartUp() {
        try {
            findAll();
        }
        catch (DataAccessException ex) {
            log.warn("Could not read the colors at start-up: {}", ex.getMostSpecificCause().toString());
        }
    }
}
