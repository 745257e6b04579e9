package com.example.colors;

import java.net.InetSocketAddress;

import org.redisson.connection.ConnectionListener;
import org.springframework.stereotype.Component;

/**
 * Whether Redisson has lost its connection to Redis. Its client-side cache keeps answering after Redis has stopped, so
 * the store asks this first, to answer 503 while Redis is away instead of what the cache kept.
 */
@Component
class RedisConnectionState implements ConnectionListener {

    private volatile boolean lost;

    @Override
    public void onConnect(InetSocketAddress address) {
        lost = false;
    }

    @Override
    public void onDisconnect(InetSocketAddress address) {
        lost = true;
    }

    boolean isLost() {
        return lost;
    }
}
