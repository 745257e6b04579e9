package com.example.items;

import java.io.Serializable;

/** Serializable: Spring Boot's caches store values in Java serialization unless a RedisCacheConfiguration bean says otherwise. */
public record Item(String id, String name) implements Serializable {
}
