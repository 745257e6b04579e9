package com.example.colors;

import org.springframework.data.repository.CrudRepository;

interface ColorHashRepository extends CrudRepository<ColorHash, String> {
}
