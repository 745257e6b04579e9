package dev.colorbench.core.palette;

import java.util.List;

/**
 * Joins colors that are already encoded (each one a JSON object, as {@link ColorJson#of(Color)}
 * writes it) into the JSON array {@code GET /colors} answers: one buffer of the exact size, one
 * copy of each element, no parsing. The elements are trusted to be whole JSON objects: checking
 * that is the caller's job, before it gets here.
 */
public final class EncodedColors {

    private EncodedColors() {
    }

    /** {@code [e1,e2,...]}: the elements in order, separated by commas; {@code []} for none. */
    public static byte[] array(List<byte[]> elements) {
        int count = elements.size();
        int length = 2 + Math.max(0, count - 1);
        for (int i = 0; i < count; i++) {
            length += elements.get(i).length;
        }
        byte[] array = new byte[length];
        array[0] = '[';
        int at = 1;
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                array[at++] = ',';
            }
            byte[] element = elements.get(i);
            System.arraycopy(element, 0, array, at, element.length);
            at += element.length;
        }
        array[at] = ']';
        return array;
    }
}
