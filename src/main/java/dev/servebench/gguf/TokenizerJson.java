package dev.servebench.gguf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The HuggingFace {@code tokenizer.json} of an {@link SpmVocabulary}: a BPE model with byte fallback, the
 * Llama normalizer (prepend {@code ▁}, spaces to {@code ▁}), a BOS post-processor and the three control
 * tokens as special added tokens, so that {@code encode(text)} gives the ids llama.cpp gives for
 * {@code tokenize(text, add_special=true, parse_special=true)}.
 *
 * <p>Why the two agree on every text: every normal piece of more than one character is {@code ▁} followed
 * by letters, and its prefix without the last letter is a piece too (the vocabulary adds whole prefix
 * chains). So the only merges are (chain, next letter) → longer chain; a merge's right side is never the
 * left side of another, so the merges that apply never compete, and SPM's score order (llama.cpp) and BPE's
 * rank order (HuggingFace) end in the same segmentation: from each {@code ▁}, the longest chain in the
 * vocabulary; every other character is its own piece, or its UTF-8 bytes when it is not in the vocabulary.
 * {@link #merges} checks that shape and refuses a vocabulary without it.
 */
public final class TokenizerJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TokenizerJson() {
    }

    /** Writes the tokenizer.json of {@code vocab} to {@code file}. */
    public static void write(SpmVocabulary vocab, Path file) throws IOException {
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), of(vocab));
    }

    /** The tokenizer.json document of {@code vocab}. */
    public static ObjectNode of(SpmVocabulary vocab) {
        List<String> pieces = vocab.pieces();
        ObjectNode root = JSON.createObjectNode();
        root.put("version", "1.0");
        root.putNull("truncation");
        root.putNull("padding");
        ArrayNode added = root.putArray("added_tokens");
        for (int id : new int[] {SpmVocabulary.UNK, SpmVocabulary.BOS, SpmVocabulary.EOS}) {
            added.addObject().put("id", id).put("content", pieces.get(id)).put("single_word", false)
                    .put("lstrip", false).put("rstrip", false).put("normalized", false).put("special", true);
        }
        ObjectNode normalizer = root.putObject("normalizer").put("type", "Sequence");
        ArrayNode normalizers = normalizer.putArray("normalizers");
        normalizers.addObject().put("type", "Prepend").put("prepend", SpmVocabulary.SPACE);
        ObjectNode replace = normalizers.addObject().put("type", "Replace");
        replace.putObject("pattern").put("String", " ");
        replace.put("content", SpmVocabulary.SPACE);
        root.putNull("pre_tokenizer");
        root.set("post_processor", bosProcessor(pieces.get(SpmVocabulary.BOS)));
        root.set("decoder", decoder());
        ObjectNode model = root.putObject("model").put("type", "BPE");
        model.putNull("dropout");
        model.put("unk_token", pieces.get(SpmVocabulary.UNK));
        model.putNull("continuing_subword_prefix");
        model.putNull("end_of_word_suffix");
        model.put("fuse_unk", true).put("byte_fallback", true).put("ignore_merges", false);
        ObjectNode vocabNode = model.putObject("vocab");
        for (int id = 0; id < pieces.size(); id++) {
            vocabNode.put(pieces.get(id), id);
        }
        ArrayNode merges = model.putArray("merges");
        merges(vocab).forEach(merges::add);
        return root;
    }

    /**
     * One merge {@code "left right"} per normal piece of two or more characters, in piece order (which is
     * SPM score order): the piece without its last character, and that character.
     *
     * @throws IllegalArgumentException when a piece is not a chain whose prefix and last letter are pieces
     */
    static List<String> merges(SpmVocabulary vocab) {
        List<String> pieces = vocab.pieces();
        int[] types = vocab.types();
        Map<String, Integer> ids = new HashMap<>();
        for (int id = 0; id < pieces.size(); id++) {
            ids.putIfAbsent(pieces.get(id), id);
        }
        List<String> merges = new java.util.ArrayList<>();
        for (int id = 0; id < pieces.size(); id++) {
            String piece = pieces.get(id);
            if (types[id] != SpmVocabulary.TYPE_NORMAL || piece.length() < 2) {
                continue;
            }
            String left = piece.substring(0, piece.length() - 1);
            String right = piece.substring(piece.length() - 1);
            boolean chain = piece.startsWith(SpmVocabulary.SPACE) && piece.indexOf(SpmVocabulary.SPACE, 1) < 0
                    && piece.chars().skip(1).allMatch(c -> c >= 'a' && c <= 'z');
            if (!chain || !ids.containsKey(left) || !ids.containsKey(right)) {
                throw new IllegalArgumentException("piece " + id + " (" + piece + ") must be ▁ followed by letters,"
                        + " with its prefix (" + left + ") and last letter (" + right + ") in the vocabulary;"
                        + " otherwise HuggingFace BPE and llama.cpp SPM may segment differently");
            }
            merges.add(left + " " + right);
        }
        return merges;
    }

    private static ObjectNode bosProcessor(String bos) {
        ObjectNode processor = JSON.createObjectNode().put("type", "TemplateProcessing");
        ArrayNode single = processor.putArray("single");
        single.addObject().putObject("SpecialToken").put("id", bos).put("type_id", 0);
        single.addObject().putObject("Sequence").put("id", "A").put("type_id", 0);
        ArrayNode pair = processor.putArray("pair");
        pair.addObject().putObject("SpecialToken").put("id", bos).put("type_id", 0);
        pair.addObject().putObject("Sequence").put("id", "A").put("type_id", 0);
        pair.addObject().putObject("SpecialToken").put("id", bos).put("type_id", 1);
        pair.addObject().putObject("Sequence").put("id", "B").put("type_id", 1);
        ObjectNode special = processor.putObject("special_tokens").putObject(bos).put("id", bos);
        special.putArray("ids").add(SpmVocabulary.BOS);
        special.putArray("tokens").add(bos);
        return processor;
    }

    private static ObjectNode decoder() {
        ObjectNode decoder = JSON.createObjectNode().put("type", "Sequence");
        ArrayNode decoders = decoder.putArray("decoders");
        ObjectNode replace = decoders.addObject().put("type", "Replace");
        replace.putObject("pattern").put("String", SpmVocabulary.SPACE);
        replace.put("content", " ");
        decoders.addObject().put("type", "ByteFallback");
        decoders.addObject().put("type", "Fuse");
        decoders.addObject().put("type", "Strip").put("content", " ").put("start", 1).put("stop", 0);
        return decoder;
    }
}
