package dev.servebench.client;

import java.nio.charset.StandardCharsets;

/**
 * Events shaped exactly like vLLM's and SGLang's streams, for the parser benchmark and the tests (which see it
 * here: the benchmarks are main code, so their data is too).
 */
public final class ChunkParserTestData {

    private ChunkParserTestData() {}

    public static byte[] completion(int i) {
        return bytes("{\"id\":\"cmpl-1a2b3c4d5e6f\",\"object\":\"text_completion\",\"created\":1700000000,"
                + "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"text\":\" t" + i
                + "\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}],\"usage\":null}");
    }

    public static byte[] chat(int i) {
        return bytes("{\"id\":\"chatcmpl-1a2b3c4d5e6f\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                + "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" t"
                + i + "\"},\"logprobs\":null,\"finish_reason\":null}]}");
    }

    public static byte[] usage(int i) {
        return bytes("{\"id\":\"cmpl-1a2b3c4d5e6f\",\"object\":\"text_completion\",\"created\":1700000000,"
                + "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[],"
                + "\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":" + (1000 + i) + ",\"total_tokens\":"
                + (1016 + i) + "}}");
    }

    public static byte[] generate(int i) {
        return bytes("{\"text\":\"The quick brown fox jumps over the lazy dog t" + i + "\",\"meta_info\":{\"id\":"
                + "\"5c1f3e\",\"finish_reason\":null,\"prompt_tokens\":16,\"completion_tokens\":" + (i + 1)
                + ",\"cached_tokens\":0},\"index\":0}");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
