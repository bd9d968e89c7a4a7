package dev.servebench.gguf;

/**
 * Shape of the generated Mixtral-style model (architecture {@code llama} with experts).
 *
 * @param vocabSize     tokens, including the 3 special and 256 byte tokens
 * @param embedding     hidden size
 * @param blocks        transformer blocks
 * @param feedForward   FF size of each expert
 * @param heads         attention heads (as many KV heads)
 * @param experts       experts per block
 * @param expertsUsed   experts each token is routed to
 * @param contextLength trained context written to the file (llama.cpp only warns beyond it)
 */
public record ModelDims(int vocabSize, int embedding, int blocks, int feedForward, int heads, int experts,
                        int expertsUsed, int contextLength) {

    /** Smallest vocabulary that holds the fixed pieces (specials, bytes, ▁, printable ASCII, ▁a..▁z). */
    public static final int MIN_VOCAB = SpmVocabulary.FIXED_PIECES;

    /** The shape the embedded engine is benchmarked with: about 14.7 M parameters. */
    public static final ModelDims TINY = new ModelDims(2048, 256, 4, 512, 4, 8, 2, 2048);

    public ModelDims {
        if (vocabSize < MIN_VOCAB) {
            throw new IllegalArgumentException("vocabSize (" + vocabSize + ") must be >= " + MIN_VOCAB);
        }
        // Q4_0 blocks run along ne0, which is embedding or feedForward for every quantized matrix.
        if (embedding < 32 || embedding % 32 != 0) {
            throw new IllegalArgumentException("embedding (" + embedding + ") must be a positive multiple of 32");
        }
        if (feedForward < 32 || feedForward % 32 != 0) {
            throw new IllegalArgumentException("feedForward (" + feedForward + ") must be a positive multiple of 32");
        }
        if (blocks < 1) {
            throw new IllegalArgumentException("blocks (" + blocks + ") must be >= 1");
        }
        if (heads < 1 || embedding % heads != 0 || (embedding / heads) % 2 != 0) {
            throw new IllegalArgumentException("heads (" + heads + ") must divide embedding (" + embedding
                    + ") into an even head size");
        }
        if (experts < 1 || expertsUsed < 1 || expertsUsed > experts) {
            throw new IllegalArgumentException("expertsUsed (" + expertsUsed + ") must be in [1, experts=" + experts + "]");
        }
        if (contextLength < 2) {
            throw new IllegalArgumentException("contextLength (" + contextLength + ") must be >= 2");
        }
    }

    public int headSize() {
        return embedding / heads;
    }
}
