package dev.servebench.workload;

import java.util.Arrays;
import java.util.Objects;

/**
 * What is sent as the prompt: token ids (exact length; {@code /v1/completions} accepts an int array as
 * {@code prompt}) or text (for chat endpoints and servers that refuse id arrays).
 */
public sealed interface PromptInput {

    /** Token ids, held in a private copy so a dataset row cannot change after it is built. */
    record TokenIds(int[] ids) implements PromptInput {
        public TokenIds {
            ids = Objects.requireNonNull(ids, "ids").clone();
        }

        /** A copy of the ids. */
        @Override
        public int[] ids() {
            return ids.clone();
        }

        public int length() {
            return ids.length;
        }

        public int idAt(int i) {
            return ids[i];
        }

        // Records compare arrays by identity; rows are compared by content.
        @Override
        public boolean equals(Object o) {
            return o instanceof TokenIds other && Arrays.equals(ids, other.ids);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ids);
        }

        @Override
        public String toString() {
            return "TokenIds[length=" + ids.length + "]";
        }
    }

    /** Prompt text, sent as a string. */
    record Text(String text) implements PromptInput {
        public Text {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public String toString() {
            return "Text[chars=" + text.length() + "]";
        }
    }
}
