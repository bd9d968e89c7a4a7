package dev.servebench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void secretOptionValuesAreHiddenOrdinaryOnesKept() {
        String shown = Redaction.command(List.of("python3", "-m", "sglang.launch_server", "--api-key", "sk-secret",
                "--hf-token=hf_secret", "--max-total-tokens", "4096", "--tokenizer-path", "/models/t", "--tp", "8"));

        assertThat(shown).isEqualTo("python3 -m sglang.launch_server --api-key *** --hf-token=*** --max-total-tokens 4096"
                + " --tokenizer-path /models/t --tp 8");
    }

    @Test
    void longArgumentsAreCut() {
        String classPath = "/a/very/long/path.jar:".repeat(20);

        assertThat(Redaction.command(List.of("java", "-cp", classPath, "Main")))
                .isEqualTo("java -cp " + classPath.substring(0, 60) + "…(" + classPath.length() + " chars) Main");
    }

    @Test
    void environmentShowsNamesOnly() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HF_TOKEN", "hf_secret");
        env.put("NCCL_DEBUG", "INFO");

        assertThat(Redaction.environmentNames(env)).isEqualTo("HF_TOKEN, NCCL_DEBUG");
        assertThat(Redaction.environmentNames(Map.of())).isEqualTo("none");
    }

    @Test
    void urlUserInfoIsDropped() {
        assertThat(Redaction.url(URI.create("http://user:pw@gpu-box:30000/v1"))).isEqualTo("http://gpu-box:30000/v1");
        assertThat(Redaction.url(URI.create("http://gpu-box:30000"))).isEqualTo("http://gpu-box:30000");
    }
}
