package dev.servebench.cli;

import dev.servebench.perf.AlternatingRounds;
import dev.servebench.perf.CompareRun;
import dev.servebench.perf.SpecRunner;
import dev.servebench.server.LaunchSettings;
import dev.servebench.server.ServerTargets;
import dev.servebench.server.ServerUnderTest;
import dev.servebench.server.embedded.TokenDelay;
import dev.servebench.spec.EmbeddedTargetSpec;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.TargetSpec;
import dev.servebench.spec.UrlTargetSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** Starting the servers of {@code servebench compare}: once, for each alternating turn, or for each block of rounds. */
final class CompareServers {

    private CompareServers() {
    }

    /** Starts {@code target} for each of its turns or blocks, its log in server-SIDE/round-R (R: the first round). */
    static AlternatingRounds.Launcher launcher(TargetSpec target, String side, String delay,
            PerformanceSpec measured, Path directory, Optional<String> apiKey, PrintWriter err, String howStarted) {
        if (target instanceof UrlTargetSpec) {
            throw new IllegalArgumentException(side + " is a server at a URL, which servebench does not start or stop"
                    + " (" + howStarted + ": give --" + side.toLowerCase(Locale.ROOT)
                    + "-target SPEC with a process, container or embedded target)");
        }
        return new AlternatingRounds.Launcher() {
            @Override
            public String target() {
                return howStarted;
            }

            @Override
            public AlternatingRounds.Started start(int round) throws IOException, InterruptedException {
                ServerUnderTest server = CompareServers.start(target, side, delay, measured,
                        directory.resolve("server-" + side).resolve("round-" + round), apiKey);
                try {
                    SpecRunner runner = runner(measured, server, apiKey, directory.resolve(side));
                    err.println("servebench compare: round " + round + ": " + side + " = " + server.describe());
                    err.flush();
                    return new AlternatingRounds.Started(new CompareRun.Side(side, runner, server.describe()), server);
                } catch (IOException | RuntimeException e) {
                    server.close();
                    throw e;
                }
            }
        };
    }

    static ServerUnderTest start(TargetSpec target, String side, String delay, PerformanceSpec measured,
            Path logs, Optional<String> apiKey) throws IOException, InterruptedException {
        TokenDelay tokenDelay = TokenDelay.parse(delay);
        if (!tokenDelay.isNone() && !(target instanceof EmbeddedTargetSpec)) {
            throw new IllegalArgumentException("--" + side.toLowerCase(Locale.ROOT) + "-token-delay " + delay
                    + ": only an embedded target can be slowed down, " + side + " is a " + target.kind() + " target");
        }
        return ServerTargets.start(target, LaunchSettings.of(logs, apiKey)
                .withEmbeddedContextFor(measured.workload()).withEmbeddedTokenDelay(tokenDelay));
    }

    static SpecRunner runner(PerformanceSpec measured, ServerUnderTest server, Optional<String> apiKey,
            Path directory) throws IOException {
        SpecRunner.Vocabulary vocabulary = server.promptTokenIds()
                .map(range -> new SpecRunner.Vocabulary(range.span(), range.idBase()))
                .orElse(SpecRunner.Vocabulary.DEFAULT);
        return new SpecRunner(measured, server.baseUrl(), server.model(), apiKey, vocabulary, directory, server.kind());
    }
}
