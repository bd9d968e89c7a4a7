package dev.servebench.server.embedded;

import dev.servebench.gguf.GgufFile;
import dev.servebench.gguf.GgufValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the dispatcher needs to know about the vocabulary. The native stream delivers text, not token
 * ids; with every non-text token banned, each streamed chunk is exactly one normal piece, and the pieces
 * of an SPM vocabulary decode to {@code piece.replace('▁', ' ')}, so the text identifies the token.
 *
 * @param size          vocabulary size
 * @param bosId         beginning-of-sequence id, which the engine puts in front of every prompt
 * @param eosId         end-of-sequence id: the only allowed token that decodes to ""
 * @param logitBiasJson server {@code logit_bias} that bans every byte, control and unknown token but EOS
 * @param textToId      decoded text of each normal piece → its id (first id wins for duplicates)
 */
record EngineVocabulary(int size, int bosId, int eosId, String logitBiasJson, Map<String, Integer> textToId) {

    /** Token id reported for a chunk whose text matches no piece (not expected with the bans in place). */
    static final int UNKNOWN_ID = -1;
    private static final int TYPE_NORMAL = 1, TYPE_USER_DEFINED = 4;
    private static final String SPM_SPACE = "\u2581";

    EngineVocabulary {
        textToId = Map.copyOf(textToId);
    }

    static EngineVocabulary of(GgufFile gguf) {
        String model = gguf.string("tokenizer.ggml.model").orElse("?");
        if (!model.equals("llama")) {
            throw new IllegalArgumentException("tokenizer.ggml.model (" + model
                    + ") must be llama (SentencePiece): token ids are recovered from SPM piece text");
        }
        List<String> tokens = gguf.tokens();
        if (!(gguf.metadata().get("tokenizer.ggml.token_type") instanceof GgufValue.I32Array typeArray)
                || typeArray.values().length != tokens.size()) {
            throw new IllegalArgumentException("tokenizer.ggml.token_type must be an i32 array as long as the "
                    + tokens.size() + " tokens");
        }
        int[] types = typeArray.values();
        int bos = Math.toIntExact(gguf.u32("tokenizer.ggml.bos_token_id").orElse(1L));
        int eos = Math.toIntExact(gguf.u32("tokenizer.ggml.eos_token_id").orElse(2L));
        Map<String, Integer> textToId = new HashMap<>();
        StringBuilder bias = new StringBuilder("[");
        for (int id = 0; id < tokens.size(); id++) {
            if (types[id] == TYPE_NORMAL || types[id] == TYPE_USER_DEFINED) {
                textToId.putIfAbsent(tokens.get(id).replace(SPM_SPACE, " "), id);
            } else if (id != eos) {
                // Byte tokens would be held back as partial UTF-8 (breaking one chunk per token), and
                // control/unknown tokens decode to "" or a placeholder, colliding with EOS.
                bias.append(bias.length() > 1 ? "," : "").append('[').append(id).append(",false]");
            }
        }
        return new EngineVocabulary(tokens.size(), bos, eos, bias.append(']').toString(), textToId);
    }

    /** The id of the token that decoded to {@code text}; "" is EOS. */
    int idOf(String text) {
        if (text.isEmpty()) {
            return eosId;
        }
        return textToId.getOrDefault(text, UNKNOWN_ID);
    }
}
