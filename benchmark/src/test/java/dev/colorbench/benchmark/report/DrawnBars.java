package dev.colorbench.benchmark.report;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The bars a screenshot shows, found by their pixels alone: what a reader sees of a bar chart, whatever the page says
 * of itself. A bar is a filled rectangle of one of the chart's colours, taller than a legend's box (Chart.js draws those
 * as high as the legend's 12 px font), so the legend below a chart is no bar.
 */
final class DrawnBars {

    /** Taller than a legend's box; the sample's bars are twice as tall. */
    static final int MIN_HEIGHT = 16;

    /** How far a pixel's channels may be from the colour: a bar's inside is drawn in its exact colour. */
    private static final int TOLERANCE = 8;

    private DrawnBars() {
    }

    record Bar(Color colour, int left, int top, int width, int height) {

        int right() {
            return left + width - 1;
        }

        @Override
        public String toString() {
            return "%s bar %dx%d at (%d, %d)".formatted(hex(colour), width, height, left, top);
        }
    }

    /** The bars of any of these colours, top to bottom. */
    static List<Bar> find(BufferedImage image, List<Color> colours) {
        int width = image.getWidth();
        int height = image.getHeight();
        int[] colourOf = new int[width * height];
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                colourOf[y * width + x] = match(image.getRGB(x, y), colours);
            }
        }
        boolean[] seen = new boolean[width * height];
        List<Bar> bars = new ArrayList<>();
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int start = 0; start < colourOf.length; start++) {
            if (colourOf[start] < 0 || seen[start]) {
                continue;
            }
            // one region of neighbouring pixels of the same colour, and the rectangle around it
            int colour = colourOf[start];
            int left = width, right = -1, top = height, bottom = -1, pixels = 0;
            seen[start] = true;
            queue.add(start);
            while (!queue.isEmpty()) {
                int p = queue.poll();
                int x = p % width, y = p / width;
                pixels++;
                left = Math.min(left, x);
                right = Math.max(right, x);
                top = Math.min(top, y);
                bottom = Math.max(bottom, y);
                for (int q : new int[] { x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1 }) {
                    if (q >= 0 && !seen[q] && colourOf[q] == colour) {
                        seen[q] = true;
                        queue.add(q);
                    }
                }
            }
            int w = right - left + 1, h = bottom - top + 1;
            // mostly filled: a whisker, its label or a tick drawn over a bar leaves it a bar; a line or a letter is none
            if (h >= MIN_HEIGHT && pixels >= 0.7 * w * h) {
                bars.add(new Bar(colours.get(colour), left, top, w, h));
            }
        }
        bars.sort(Comparator.comparingInt(Bar::top));
        return bars;
    }

    /** The share of the bars' pixels whose colour differs between the two pictures of one size. */
    static double shareDiffering(BufferedImage drawn, BufferedImage blank, List<Bar> bars) {
        long all = 0, differing = 0;
        for (Bar bar : bars) {
            for (int y = bar.top(); y < bar.top() + bar.height(); y++) {
                for (int x = bar.left(); x <= bar.right(); x++) {
                    all++;
                    if (distance(drawn.getRGB(x, y), blank.getRGB(x, y)) > TOLERANCE) {
                        differing++;
                    }
                }
            }
        }
        return all == 0 ? 0 : (double) differing / all;
    }

    static String hex(Color colour) {
        return "#%02x%02x%02x".formatted(colour.getRed(), colour.getGreen(), colour.getBlue());
    }

    private static int match(int rgb, List<Color> colours) {
        for (int i = 0; i < colours.size(); i++) {
            if (distance(rgb, colours.get(i).getRGB()) <= TOLERANCE) {
                return i;
            }
        }
        return -1;
    }

    private static int distance(int a, int b) {
        return Math.max(Math.abs((a >> 16 & 0xff) - (b >> 16 & 0xff)),
                Math.max(Math.abs((a >> 8 & 0xff) - (b >> 8 & 0xff)), Math.abs((a & 0xff) - (b & 0xff))));
    }
}
