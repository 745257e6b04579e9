package com.example.colors;

/** One named color, as Redis holds it and as GET /colors answers it. */
record Color(String name, String hex, int red, int green, int blue) {
}
