package dev.servebench.spec;

import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** "Did you mean" suggestions for misspelt keys and metric names. */
final class Similarity {

    private Similarity() {
    }

    /**
     * Up to {@code limit} candidates close to {@code word}, closest first: the same {@code _}-separated
     * words in another order (p99_ttft_ms for ttft_p99_ms), or within an edit distance of a third of the
     * word (at least 2).
     */
    static List<String> closest(String word, Collection<String> candidates, int limit) {
        int allowed = Math.max(2, word.length() / 3);
        return candidates.stream()
                .filter(c -> sameWords(word, c) || editDistance(word, c) <= allowed)
                .sorted(Comparator.comparingInt((String c) -> sameWords(word, c) ? 0 : editDistance(word, c))
                        .thenComparing(Comparator.naturalOrder()))
                .limit(limit)
                .toList();
    }

    private static boolean sameWords(String a, String b) {
        String[] left = a.split("_");
        String[] right = b.split("_");
        Arrays.sort(left);
        Arrays.sort(right);
        return Arrays.equals(left, right);
    }

    /** Levenshtein distance: insertions, deletions and substitutions of single chars. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** {@code " (did you mean 'a' or 'b'?)"}, or empty without suggestions. */
    static String didYouMean(List<String> suggestions) {
        if (suggestions.isEmpty()) {
            return "";
        }
        return " (did you mean " + String.join(" or ", suggestions.stream().map(s -> "'" + s + "'").toList()) + "?)";
    }
}
