package dev.servebench.gguf;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.SequencedSet;
import java.util.SplittableRandom;

/**
 * A SentencePiece-style (SPM) vocabulary with byte fallback, in the layout llama.cpp b4916 accepts:
 * {@code <unk>}, {@code <s>}, {@code </s>}, the 256 byte tokens {@code <0x00>..<0xFF>}, then normal
 * pieces: {@code ▁}, the printable ASCII characters (space excluded: SPM spells it {@code ▁}),
 * {@code ▁a..▁z}, and pseudo-words added as whole prefix chains ({@code ▁ka}, {@code ▁kab}, …) so that
 * SPM's bigram merges can reach every piece. Every normal piece therefore decodes to a distinct string,
 * which lets the engine map a streamed chunk back to its token id.
 *
 * <p>The pieces do not depend on the model seed: the same text tokenizes the same way for every model.
 *
 * @param pieces token strings, index = token id
 * @param scores SPM scores (normal pieces: minus their rank, so earlier pieces merge first)
 * @param types  llama token types
 */
public record SpmVocabulary(List<String> pieces, float[] scores, int[] types) {

    public static final int UNK = 0, BOS = 1, EOS = 2;
    /** First byte token ({@code <0x00>}); byte tokens are {@code FIRST_BYTE..FIRST_BYTE+255}. */
    public static final int FIRST_BYTE = 3;
    public static final int TYPE_NORMAL = 1, TYPE_UNKNOWN = 2, TYPE_CONTROL = 3, TYPE_BYTE = 6;
    /** The word-boundary marker SPM uses for a space. */
    public static final String SPACE = "\u2581";

    private static final int PRINTABLE_FIRST = 0x21, PRINTABLE_LAST = 0x7E;
    static final int FIXED_PIECES = 3 + 256 + 1 + (PRINTABLE_LAST - PRINTABLE_FIRST + 1) + 26;
    private static final String CONSONANTS = "bcdfghjklmnprstvwz";
    private static final String VOWELS = "aeiou";

    public SpmVocabulary {
        pieces = List.copyOf(pieces);
        scores = scores.clone();
        types = types.clone();
        if (scores.length != pieces.size() || types.length != pieces.size()) {
            throw new IllegalArgumentException("pieces (" + pieces.size() + "), scores (" + scores.length
                    + ") and types (" + types.length + ") must have the same length");
        }
    }

    public static SpmVocabulary build(int size) {
        if (size < FIXED_PIECES) {
            throw new IllegalArgumentException("size (" + size + ") must be >= " + FIXED_PIECES);
        }
        List<String> pieces = new ArrayList<>(size);
        List<Integer> types = new ArrayList<>(size);
        pieces.addAll(List.of("<unk>", "<s>", "</s>"));
        types.addAll(List.of(TYPE_UNKNOWN, TYPE_CONTROL, TYPE_CONTROL));
        for (int b = 0; b < 256; b++) {
            pieces.add(String.format(Locale.ROOT, "<0x%02X>", b));
            types.add(TYPE_BYTE);
        }
        SequencedSet<String> normal = new LinkedHashSet<>();
        normal.add(SPACE);
        for (char c = PRINTABLE_FIRST; c <= PRINTABLE_LAST; c++) {
            normal.add(String.valueOf(c));
        }
        for (char c = 'a'; c <= 'z'; c++) {
            normal.add(SPACE + c);
        }
        // A fixed seed: the vocabulary is part of the format, not of the random weights.
        SplittableRandom random = new SplittableRandom(0x5350_4D56_4F43_4142L);
        int normalCount = size - pieces.size();
        while (normal.size() < normalCount) {
            String word = pseudoWord(random);
            for (int end = 2; end <= word.length() && normal.size() < normalCount; end++) {
                normal.add(SPACE + word.substring(0, end));
            }
        }
        float[] scores = new float[size];
        int[] typeArray = new int[size];
        for (int i = 0; i < types.size(); i++) {
            typeArray[i] = types.get(i);
        }
        int rank = 0;
        for (String piece : normal) {
            int id = pieces.size();
            pieces.add(piece);
            typeArray[id] = TYPE_NORMAL;
            scores[id] = -rank++;
        }
        return new SpmVocabulary(pieces, scores, typeArray);
    }

    /** Two to four consonant-vowel syllables, sometimes closed by a consonant: {@code kabo}, {@code tirun}. */
    private static String pseudoWord(SplittableRandom random) {
        StringBuilder word = new StringBuilder();
        int syllables = 2 + random.nextInt(3);
        for (int s = 0; s < syllables; s++) {
            word.append(CONSONANTS.charAt(random.nextInt(CONSONANTS.length())));
            word.append(VOWELS.charAt(random.nextInt(VOWELS.length())));
        }
        if (random.nextBoolean()) {
            word.append(CONSONANTS.charAt(random.nextInt(CONSONANTS.length())));
        }
        return word.toString();
    }

    @Override
    public float[] scores() {
        return scores.clone();
    }

    @Override
    public int[] types() {
        return types.clone();
    }

    public int size() {
        return pieces.size();
    }
}
