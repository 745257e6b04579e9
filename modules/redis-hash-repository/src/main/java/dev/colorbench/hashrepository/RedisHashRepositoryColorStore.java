package dev.colorbench.hashrepository;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.Color;
import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.ColorStore;
import dev.colorbench.core.Palette;

import org.springframework.stereotype.Component;

/**
 * A Spring Data {@code @RedisHash} repository. {@code findAll()} reads the id set, then each
 * hash in turn: one {@code GET /colors} costs <b>1 SMEMBERS + 148 HGETALL</b>, 149 round trips.
 * A subset uses {@code findAllById}, one HGETALL per distinct name. Redis returns set members
 * in no particular order, so the answer is put back into palette order here.
 *
 * <p>Seeding is {@code saveAll}: for each color a DEL, an HMSET and an SADD of its id. A read
 * that finds colors missing re-seeds and answers from the palette.
 */
@Component
class RedisHashRepositoryColorStore implements ColorStore, ColorSeeder {

    private final ColorHashRepository repository;

    RedisHashRepositoryColorStore(ColorHashRepository repository) {
        this.repository = repository;
    }

    @Override
    public List<Color> findAll() {
        return inOrder(repository.findAll(), Palette.names());
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        return inOrder(repository.findAllById(names.stream().distinct().toList()), names);
    }

    private List<Color> inOrder(Iterable<ColorHash> found, List<String> names) {
        Map<String, Color> byName = new HashMap<>();
        found.forEach(hash -> byName.put(hash.name(), hash.toColor()));
        if (!byName.keySet().containsAll(names)) {
            seed();
            return Palette.colors(names);
        }
        return names.stream().map(byName::get).toList();
    }

    @Override
    public void seed() {
        repository.saveAll(Palette.all().stream().map(ColorHash::of).toList());
    }
}
