package dev.servebench.server.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.DeviceRequest;
import com.github.dockerjava.api.model.HostConfig;
import dev.servebench.client.Backend;
import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.spec.GpuRequest;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.core.CreateContainerCmdModifier;

/** The container configuration, checked without Docker: the plan, then the Testcontainers object built from it. */
class ContainerPlanTest {

    private static final long GIB = 1L << 30;
    private static final List<String> SGLANG_COMMAND = List.of("python3", "-m", "sglang.launch_server", "--model-path",
            "zai-org/GLM-5", "--host", "0.0.0.0", "--port", "30000", "--tp", "8");

    private static ContainerTargetSpec sglang(GpuRequest gpus, Optional<String> shm, Optional<Path> cache) {
        return new ContainerTargetSpec("lmsysorg/sglang:latest", SGLANG_COMMAND, gpus, shm, cache, 30000,
                Map.of("HF_TOKEN", "hf_secret", "NCCL_DEBUG", "WARN"), Duration.ofMinutes(15), Backend.SGLANG_OAI,
                Optional.empty());
    }

    @Test
    void allGpusWithoutShmSizeShareTheHostIpcNamespace() {
        ContainerPlan plan = ContainerPlan.of(sglang(new GpuRequest.All(), Optional.empty(), Optional.empty()));

        assertThat(plan.deviceRequest()).hasValueSatisfying(request -> {
            assertThat(request.getDriver()).isEqualTo("nvidia");
            assertThat(request.getCount()).isEqualTo(-1);
            assertThat(request.getCapabilities()).isEqualTo(List.of(List.of("gpu")));
        });
        assertThat(plan.hostIpc()).isTrue();
        assertThat(plan.shmBytes()).isEmpty();
    }

    @Test
    void anExplicitShmSizeKeepsAPrivateIpcNamespaceOfThatSize() {
        ContainerPlan plan = ContainerPlan.of(new ContainerTargetSpec("vllm/vllm-openai:latest",
                List.of("--model", "zai-org/GLM-5", "--tensor-parallel-size", "8"), new GpuRequest.Count(8),
                Optional.of("16g"), Optional.empty(), 8000, Map.of(), Duration.ofMinutes(20), Backend.VLLM, Optional.empty()));

        assertThat(plan.deviceRequest()).map(DeviceRequest::getCount).contains(8);
        assertThat(plan.shmBytes()).hasValue(16 * GIB);
        assertThat(plan.hostIpc()).isFalse();
        assertThat(plan.command()).containsExactly("--model", "zai-org/GLM-5", "--tensor-parallel-size", "8");
    }

    @Test
    void noGpusNoDeviceRequestNoHostIpc() {
        ContainerPlan plan = ContainerPlan.of(sglang(new GpuRequest.None(), Optional.empty(), Optional.empty()));

        assertThat(plan.deviceRequest()).isEmpty();
        assertThat(plan.hostIpc()).isFalse();
        HostConfig hostConfig = HostConfig.newHostConfig();
        plan.amend(hostConfig);
        assertThat(hostConfig.getDeviceRequests()).isNull();
        assertThat(hostConfig.getIpcMode()).isNull();
    }

    @Test
    void sizesAreReadAsDockerAndKubernetesWriteThem() {
        assertThat(ContainerPlan.parseSize("32g")).isEqualTo(32 * GIB);
        assertThat(ContainerPlan.parseSize("16Gi")).isEqualTo(16 * GIB);
        assertThat(ContainerPlan.parseSize("16GiB")).isEqualTo(16 * GIB);
        assertThat(ContainerPlan.parseSize("512m")).isEqualTo(512L << 20);
        assertThat(ContainerPlan.parseSize("64MB")).isEqualTo(64L << 20);
        assertThat(ContainerPlan.parseSize("1.5g")).isEqualTo(3 * GIB / 2);
        assertThat(ContainerPlan.parseSize("4096")).isEqualTo(4096);
        assertThat(ContainerPlan.parseSize("1t")).isEqualTo(1024 * GIB);
        for (String bad : List.of("", "g", "32x", "-1g", "16i", "0", "32 gigs")) {
            assertThatThrownBy(() -> ContainerPlan.parseSize(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("size '" + bad + "'");
        }
    }

    @Test
    void theContainerCarriesImageCommandPortEnvShmAndTheModelCache(@org.junit.jupiter.api.io.TempDir Path cache) {
        ContainerPlan plan = ContainerPlan.of(sglang(new GpuRequest.Count(2), Optional.of("32g"), Optional.of(cache)));

        GenericContainer<?> container = plan.toContainer();

        // getDockerImageName() would resolve (pull) the image; the unresolved reference names it too.
        assertThat(container.getImage().toString()).contains("lmsysorg/sglang:latest");
        assertThat(container.getCommandParts()).containsExactlyElementsOf(SGLANG_COMMAND);
        assertThat(container.getExposedPorts()).containsExactly(30000);
        assertThat(container.getPortBindings()).containsExactly("127.0.0.1:30000:30000/tcp");
        assertThat(container.getEnvMap()).containsEntry("HF_TOKEN", "hf_secret").containsEntry("NCCL_DEBUG", "WARN");
        assertThat(container.getShmSize()).isEqualTo(32 * GIB);
        assertThat(container.getBinds()).singleElement().satisfies(bind -> {
            assertThat(bind.getPath()).isEqualTo(cache.toAbsolutePath().toString());
            assertThat(bind.getVolume().getPath()).isEqualTo(ContainerTargetSpec.MODEL_CACHE_MOUNT);
            assertThat(bind.getAccessMode()).isEqualTo(AccessMode.rw);
        });
        assertThat(container.getBinds()).extracting(Bind::getPath).doesNotContain("/var/run/docker.sock");
    }

    @Test
    void theImagesOwnCommandIsKeptWhenTheSpecGivesNone() {
        ContainerPlan plan = ContainerPlan.of(new ContainerTargetSpec("vllm/vllm-openai:latest", List.of(),
                new GpuRequest.All(), Optional.empty(), Optional.empty(), 8000, Map.of(), Duration.ofMinutes(15),
                Backend.VLLM, Optional.of("zai-org/GLM-5")));

        assertThat(plan.toContainer().getCommandParts()).isEmpty();
    }

    @Test
    void theCreateCommandModifierAddsTheGpuRequestAndHostIpcToTestcontainersHostConfig() {
        ContainerPlan plan = ContainerPlan.of(sglang(new GpuRequest.All(), Optional.empty(), Optional.empty()));
        GenericContainer<?> container = plan.toContainer();
        // What Testcontainers has set by the time modifiers run: its own host config, e.g. with a port binding.
        HostConfig fromTestcontainers = HostConfig.newHostConfig().withShmSize(64L << 20);
        RecordingCreateCmd cmd = new RecordingCreateCmd(fromTestcontainers);

        for (CreateContainerCmdModifier modifier : container.getCreateContainerCmdModifiers()) {
            modifier.modify(cmd.proxy());
        }

        HostConfig result = cmd.hostConfig.get();
        assertThat(result).isSameAs(fromTestcontainers);
        assertThat(result.getShmSize()).isEqualTo(64L << 20);
        assertThat(result.getIpcMode()).isEqualTo("host");
        assertThat(result.getDeviceRequests()).singleElement().satisfies(request -> {
            assertThat(request.getDriver()).isEqualTo("nvidia");
            assertThat(request.getCount()).isEqualTo(-1);
            assertThat(request.getCapabilities()).isEqualTo(List.of(List.of("gpu")));
        });
    }

    @Test
    void theModifierCreatesAHostConfigWhenThereIsNone() {
        ContainerPlan plan = ContainerPlan.of(sglang(new GpuRequest.Count(4), Optional.of("8g"), Optional.empty()));
        RecordingCreateCmd cmd = new RecordingCreateCmd(null);

        plan.createCommandModifier().accept(cmd.proxy());

        assertThat(cmd.hostConfig.get().getDeviceRequests()).extracting(DeviceRequest::getCount).containsExactly(4);
        assertThat(cmd.hostConfig.get().getIpcMode()).isNull();
    }

    /**
     * A {@link CreateContainerCmd} that only holds a host config: docker-java's implementation lives in its core
     * module, which Testcontainers shades, so the public interface is stood in for here.
     */
    private static final class RecordingCreateCmd {
        final AtomicReference<HostConfig> hostConfig;

        RecordingCreateCmd(HostConfig initial) {
            hostConfig = new AtomicReference<>(initial);
        }

        CreateContainerCmd proxy() {
            return (CreateContainerCmd) Proxy.newProxyInstance(CreateContainerCmd.class.getClassLoader(),
                    new Class<?>[] {CreateContainerCmd.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "getHostConfig" -> hostConfig.get();
                        case "withHostConfig" -> {
                            hostConfig.set((HostConfig) args[0]);
                            yield proxy;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        case "toString" -> "RecordingCreateCmd";
                        default -> throw new UnsupportedOperationException("CreateContainerCmd." + method.getName());
                    });
        }
    }
}
