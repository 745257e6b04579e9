package dev.colorbench.hashrepository;

import org.springframework.data.repository.CrudRepository;

interface ColorHashRepository extends CrudRepository<ColorHash, String> {
}
