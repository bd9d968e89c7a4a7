package dev.servebench.workload;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Filler text for prompts sent as text. The words are short, common and lowercase so that, preceded by a
 * space, each is a single token in the usual BPE vocabularies (GPT-2/cl100k/o200k, Llama, Qwen, Mistral);
 * a prompt of n words is then about n tokens, plus whatever special tokens the server adds.
 */
final class PromptWords {

    static final List<String> WORDS = List.of(
            "the", "of", "and", "to", "in", "is", "it", "you", "that", "was",
            "for", "on", "are", "with", "as", "they", "be", "at", "one", "have",
            "this", "from", "or", "had", "by", "but", "what", "some", "we", "can",
            "out", "other", "were", "all", "there", "when", "up", "use", "your", "how",
            "said", "an", "each", "she", "which", "do", "their", "time", "if", "will",
            "way", "about", "many", "then", "them", "would", "like", "so", "these", "her",
            "long", "make", "thing", "see", "him", "two", "has", "look", "more", "day",
            "could", "go", "come", "did", "my", "no", "most", "who", "over", "know",
            "water", "than", "call", "first", "people", "may", "down", "side", "been", "now",
            "find", "any", "new", "work", "part", "take", "get", "place", "made", "live",
            "where", "after", "back", "little", "only", "man", "year", "came", "show", "every",
            "good", "me", "give", "our", "under", "name", "very", "just", "much", "great",
            "think", "say", "help", "line", "before", "turn", "same", "move", "right", "old",
            "too", "does", "tell", "set", "three", "want", "air", "well", "also", "play",
            "small", "end", "put", "home", "read", "hand", "large", "add", "even", "land",
            "here", "must", "big", "high", "such", "act", "why", "ask", "men", "went");

    private PromptWords() {
    }

    /**
     * {@code count} words drawn independently, each preceded by a space. Independent draws (rather than
     * SGLang's cyclic walk through the vocabulary) because a cycle through a word list this short would
     * give many prompts long common prefixes and inflate prefix-cache hits.
     */
    static String randomText(UniformRandomProvider rng, int count) {
        StringBuilder text = new StringBuilder(count * 5);
        for (int i = 0; i < count; i++) {
            text.append(' ').append(WORDS.get(rng.nextInt(WORDS.size())));
        }
        return text.toString();
    }
}
