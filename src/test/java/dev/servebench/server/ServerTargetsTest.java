package dev.servebench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.client.Backend;
import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.spec.EmbeddedTargetSpec;
import dev.servebench.spec.GpuRequest;
import dev.servebench.spec.ProcessTargetSpec;
import dev.servebench.spec.PromptCount;
import dev.servebench.spec.PromptFormat;
import dev.servebench.spec.RandomDatasetSpec;
import dev.servebench.spec.ShareGptDatasetSpec;
import dev.servebench.spec.UrlTargetSpec;
import dev.servebench.spec.WorkloadSpec;
import dev.servebench.server.container.TestcontainersLauncher;
import dev.servebench.gguf.WeightType;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerTargetsTest {

    private static final ContainerTargetSpec SGLANG = new ContainerTargetSpec("lmsysorg/sglang:latest",
            List.of("python3", "-m", "sglang.launch_server", "--model-path", "zai-org/GLM-5", "--host", "0.0.0.0",
                    "--port", "30000", "--tp", "8"), new GpuRequest.All(), Optional.of("32g"), Optional.empty(), 30000,
            Map.of(), Duration.ofMinutes(15), Backend.SGLANG_OAI, Optional.empty());

    @TempDir
    Path logs;

    @Test
    void containerTargetsWithoutContainerSupportFailWithAClearMessage() {
        LaunchSettings settings = LaunchSettings.of(logs, Optional.empty()).withoutContainerLauncher();

        assertThatThrownBy(() -> ServerTargets.start(SGLANG, settings))
                .isInstanceOfSatisfying(ServerStartException.class,
                        e -> assertThat(e.reason()).isEqualTo(ServerStartException.Reason.LAUNCH_FAILED))
                .hasMessage("cannot start container target lmsysorg/sglang:latest: no container support on the class path"
                        + " (no ContainerLauncher registered in META-INF/services; servebench's own,"
                        + " server.container.TestcontainersLauncher, ships in its jar)");
    }

    @Test
    void servebenchsContainerSupportIsFoundOnTheClassPath() {
        assertThat(ContainerLauncher.discover()).containsInstanceOf(TestcontainersLauncher.class);
        assertThat(LaunchSettings.of(logs, Optional.empty()).containers()).containsInstanceOf(TestcontainersLauncher.class);
    }

    @Test
    void containerTargetsGoToThePluggedInLauncher() throws Exception {
        AtomicReference<ContainerTargetSpec> launched = new AtomicReference<>();
        UrlServer standIn;
        try (StubHttpServer stub = new StubHttpServer()) {
            stub.always("/v1/completions", 200, "{\"choices\":[{\"text\":\"x\"}]}");
            standIn = UrlServer.connect(new UrlTargetSpec(stub.baseUrl(), Backend.OPENAI, Optional.of("m")),
                    Optional.empty(), Duration.ofSeconds(5));
        }
        LaunchSettings settings = LaunchSettings.of(logs, Optional.of("sk-test")).withContainerLauncher((spec, given) -> {
            launched.set(spec);
            assertThat(given.apiKey()).contains("sk-test");
            assertThat(given.logFile(spec.kind())).isEqualTo(logs.resolve("server-container.log"));
            return standIn;
        });

        assertThat(ServerTargets.start(SGLANG, settings)).isSameAs(standIn);
        assertThat(launched.get()).isSameAs(SGLANG);
    }

    @Test
    void urlTargetsAreCheckedButNotStarted() throws Exception {
        try (StubHttpServer stub = new StubHttpServer()) {
            stub.always("/v1/models", 200, "{\"data\":[{\"id\":\"remote-model\"}]}")
                    .always("/v1/completions", 200, "{\"choices\":[{\"text\":\"x\"}]}");
            URI withUser = URI.create("http://user:pw@127.0.0.1:" + stub.baseUrl().getPort());

            try (ServerUnderTest server = ServerTargets.start(new UrlTargetSpec(withUser, Backend.SGLANG_OAI, Optional.empty()),
                    logs, Optional.empty())) {
                assertThat(server).isInstanceOf(UrlServer.class);
                assertThat(server.kind()).isEqualTo("url");
                assertThat(server.model()).contains("remote-model");
                assertThat(server.describe()).startsWith("server at " + stub.baseUrl() + ", backend sglang-oai, model remote-model")
                        .doesNotContain("pw");
            }
            assertThat(stub.paths()).containsExactly("GET /v1/models", "POST /v1/completions");
        }
    }

    @Test
    void theEmbeddedEngineStartsInThisJvm() throws Exception {
        EmbeddedTargetSpec spec = new EmbeddedTargetSpec(WeightType.Q4_0, 2, 2, Backend.OPENAI_CHAT, Optional.empty());
        int port;
        try (ServerUnderTest server = ServerTargets.start(spec, LaunchSettings.of(logs, Optional.empty())
                .withEmbeddedContextPerSlot(96))) {
            port = server.baseUrl().getPort();
            assertThat(server).isInstanceOf(EmbeddedServerUnderTest.class);
            assertThat(server.baseUrl().getHost()).isEqualTo("127.0.0.1");
            assertThat(server.model()).hasValueSatisfying(model -> assertThat(model).startsWith("tiny-moe"));
            assertThat(server.promptTokenIds()).contains(new TokenIdRange(EmbeddedTarget.FIRST_ORDINARY_TOKEN,
                    2048 - EmbeddedTarget.FIRST_ORDINARY_TOKEN));
            assertThat(server.describe()).contains("q4_0, 2 slots, 96 tokens each", "backend openai-chat");
            assertThat(server.logExcerpt(10)).isEmpty();
            assertThat(server.resetCache()).isEqualTo(new CacheReset.NotOffered(EmbeddedServerUnderTest.NO_RESET));
        }
        assertThat(ProcessServerTest.listening(port)).isFalse();
    }

    @Test
    void processTargetsLogIntoTheLogDirectory() {
        int port = ProcessServerTest.freePort();
        ProcessTargetSpec spec = new ProcessTargetSpec(ProcessServerTest.serve(port, "--weights", "bogus"), port,
                Duration.ofSeconds(60), Map.of(), Optional.empty(), Backend.OPENAI, Optional.empty());

        assertThatThrownBy(() -> ServerTargets.start(spec, logs, Optional.empty()))
                .isInstanceOf(ServerStartException.class).hasMessageContaining("got 'bogus'");
        assertThat(logs.resolve("server-process.log")).content().contains("got 'bogus'");
    }

    @Test
    void launchSettingsNeverShowTheApiKey() {
        LaunchSettings settings = LaunchSettings.of(logs, Optional.of("sk-very-secret"));

        assertThat(settings.toString()).contains("apiKey=(set)").doesNotContain("sk-very-secret");
    }

    @Test
    void embeddedContextFitsTheWorkload() {
        WorkloadSpec random = new WorkloadSpec(new RandomDatasetSpec(128, 64, 1.0), new PromptCount.Fixed(100), 42,
                PromptFormat.AUTO, true);
        WorkloadSpec shareGpt = new WorkloadSpec(new ShareGptDatasetSpec(Path.of("s.json"), OptionalInt.of(256)),
                new PromptCount.Fixed(100), 42, PromptFormat.AUTO, true);

        assertThat(LaunchSettings.embeddedContextFor(random)).isEqualTo(128 + 64 + 1);
        assertThat(LaunchSettings.embeddedContextFor(shareGpt)).isEqualTo(1024 + 256 + 1);
        assertThat(LaunchSettings.of(logs, Optional.empty()).withEmbeddedContextFor(random).embeddedContextPerSlot())
                .isEqualTo(193);
    }
}
