package dev.servebench.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import dev.servebench.testserver.Fault;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import dev.servebench.workload.PromptRequest;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every fault the scripted server can produce, through the real client and driver: each request either
 * succeeds as documented or becomes a failed record with its reason, and the run always goes on.
 */
class ClientFaultsTest {

    private static final int TOKENS = 8;

    private static List<RequestRecord> run(Plan faulty, Endpoint endpoint, int requests) throws Exception {
        return run(faulty, endpoint, requests, Duration.ofSeconds(10));
    }

    private static List<RequestRecord> run(Plan faulty, Endpoint endpoint, int requests, Duration stall) throws Exception {
        // Request 1 gets the fault; the others are clean, proving the run continues around it.
        Script script = Script.builder().byIndex(i -> i == 1 ? faulty : Plan.fullSpeed()).build();
        try (ScriptedServer server = ScriptedServer.start(script)) {
            return runAgainst(server.baseUri(), endpoint, requests, stall);
        }
    }

    static List<RequestRecord> runAgainst(URI base, Endpoint endpoint, int requests, Duration stall) throws Exception {
        RequestBodies bodies = new RequestBodies(endpoint, Optional.of("m"), true, null);
        List<PreparedRequest> prepared = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            PromptRequest row = endpoint.acceptsTokenIds()
                    ? PromptRequest.ofTokenIds(i, new int[] {11, 12, 13}, TOKENS)
                    : PromptRequest.ofText(i, "hello there", 2, TOKENS);
            prepared.add(bodies.prepare(i, row));
        }
        try (StreamingClient client = new StreamingClient(
                new ClientConfig(base, endpoint, Optional.empty(), 1, stall), NanoClock.startingNow())) {
            // Concurrency 1 keeps arrival order = index order, so the fault lands on request 1.
            return new LoadDriver(client).run(prepared, new long[requests], 1, r -> { }, LoadProgress.NONE).records();
        }
    }

    private static Outcome.Failure failureOf(RequestRecord r) {
        assertThat(r.outcome()).isInstanceOf(Outcome.Failure.class);
        return (Outcome.Failure) r.outcome();
    }

    private static void othersSucceeded(List<RequestRecord> records) {
        for (RequestRecord r : records) {
            if (r.index() != 1) {
                assertThat(r.succeeded()).as("request %d", r.index()).isTrue();
                assertThat(r.chunkOutputTokens()).isEqualTo(TOKENS);
            }
        }
    }

    @Test
    void connectionRefusedIsAConnectFailurePerRequest() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<RequestRecord> records = runAgainst(URI.create("http://127.0.0.1:" + port), Endpoint.COMPLETIONS, 3,
                Duration.ofSeconds(1));
        assertThat(records).hasSize(3).allSatisfy(r -> assertThat(failureOf(r).kind()).isEqualTo(FailureKind.CONNECT));
        assertThat(failureOf(records.get(0)).reason()).contains("cannot connect to http://127.0.0.1:" + port);
    }

    @Test
    void httpErrorKeepsStatusAndBody() throws Exception {
        List<RequestRecord> records = run(Plan.builder().fault(Fault.httpError(429, "rate_limit_exceeded", "slow down")).build(),
                Endpoint.COMPLETIONS, 3);
        Outcome.Failure failure = failureOf(records.get(1));
        assertThat(failure.kind()).isEqualTo(FailureKind.HTTP_STATUS);
        assertThat(failure.httpStatus()).isEqualTo(429);
        assertThat(failure.reason()).startsWith("HTTP 429: ").contains("slow down");
        othersSucceeded(records);
    }

    @Test
    void resetMidStreamKeepsTheChunksThatArrived() throws Exception {
        List<RequestRecord> records = run(Plan.builder().fault(Fault.resetAfter(3)).build(), Endpoint.COMPLETIONS, 3);
        Outcome.Failure failure = failureOf(records.get(1));
        assertThat(failure.kind()).isEqualTo(FailureKind.RESET);
        assertThat(records.get(1).chunkOutputTokens()).isEqualTo(3);
        othersSucceeded(records);
    }

    @Test
    void stallPastTheTimeoutFailsWithTimeout() throws Exception {
        // Warm the JVM first: a cold first request can take longer than the short stall timeout used here.
        run(Plan.fullSpeed(), Endpoint.COMPLETIONS, 3);
        List<RequestRecord> records = run(Plan.builder().fault(Fault.stallAfter(2)).build(), Endpoint.COMPLETIONS, 3,
                Duration.ofMillis(400));
        Outcome.Failure failure = failureOf(records.get(1));
        assertThat(failure.kind()).isEqualTo(FailureKind.TIMEOUT);
        assertThat(failure.reason()).contains("400 ms");
        RequestRecord stalled = records.get(1);
        assertThat(stalled.endNanos() - stalled.chunks().nanosAt(stalled.chunks().size() - 1))
                .isGreaterThanOrEqualTo(Duration.ofMillis(400).toNanos());
        othersSucceeded(records);
    }

    @Test
    void invalidJsonEventIsAProtocolFailure() throws Exception {
        List<RequestRecord> records = run(Plan.builder().fault(Fault.invalidJsonAt(4)).build(), Endpoint.COMPLETIONS, 3);
        Outcome.Failure failure = failureOf(records.get(1));
        assertThat(failure.kind()).isEqualTo(FailureKind.PROTOCOL);
        assertThat(failure.reason()).contains("invalid JSON");
        othersSucceeded(records);
    }

    @Test
    void streamWithoutDoneIsIncomplete() throws Exception {
        List<RequestRecord> records = run(Plan.builder().fault(Fault.noDone()).build(), Endpoint.COMPLETIONS, 3);
        Outcome.Failure failure = failureOf(records.get(1));
        assertThat(failure.kind()).isEqualTo(FailureKind.INCOMPLETE);
        assertThat(records.get(1).chunkOutputTokens()).isEqualTo(TOKENS);
        othersSucceeded(records);
    }

    @Test
    void errorEventInTheStreamIsAServerError() throws Exception {
        List<RequestRecord> records = run(Plan.builder().fault(Fault.inStreamError(2, "CUDA out of memory")).build(),
                Endpoint.COMPLETIONS, 3);
        Outcome.Failure failure = failureOf(records.get(1));
        assertThat(failure.kind()).isEqualTo(FailureKind.SERVER_ERROR);
        assertThat(failure.reason()).contains("CUDA out of memory");
        othersSucceeded(records);
    }

    @Test
    void commentsEmptyChunksCrlfAndSplitWritesAreTolerated() throws Exception {
        Plan noisy = Plan.builder().pingEvery(2).emptyEvery(3).crlf(true).splitWrites(Duration.ofMillis(1)).build();
        List<RequestRecord> records = run(noisy, Endpoint.COMPLETIONS, 3);
        assertThat(records).allSatisfy(r -> {
            assertThat(r.succeeded()).isTrue();
            assertThat(r.chunkOutputTokens()).isEqualTo(TOKENS);
            assertThat(r.usage()).hasValueSatisfying(u -> assertThat(u.completionTokens()).isEqualTo(TOKENS));
        });
        // Empty-content chunks are choice-bearing events without tokens.
        assertThat(records.get(1).chunks().size()).isGreaterThan(TOKENS);
    }

    @Test
    void multiTokenChunksShowAsUsageVersusChunkCountMismatch() throws Exception {
        List<RequestRecord> records = run(Plan.builder().tokensPerChunk(4).build(), Endpoint.COMPLETIONS, 2);
        RequestRecord multi = records.get(1);
        assertThat(multi.succeeded()).isTrue();
        assertThat(multi.usage()).hasValueSatisfying(u -> assertThat(u.completionTokens()).isEqualTo(TOKENS));
        assertThat(multi.chunkOutputTokens()).isEqualTo(TOKENS / 4);
    }

    @Test
    void generateEndpointCountsEveryTokenOfMultiTokenChunks() throws Exception {
        List<RequestRecord> records = run(Plan.builder().tokensPerChunk(4).build(), Endpoint.SGLANG_GENERATE, 2);
        RequestRecord multi = records.get(1);
        assertThat(multi.succeeded()).isTrue();
        assertThat(multi.chunkOutputTokens()).isEqualTo(TOKENS);
        assertThat(multi.chunks().tokensAt(1)).isEqualTo(4);
        assertThat(multi.sglangItlSeconds()).hasSize(TOKENS - 4);
    }

    @Test
    void chatRoleChunkTriggersVllmTtftButNotSglangTtft() throws Exception {
        Plan paced = Plan.builder().ttft(Duration.ofMillis(5)).gap(Duration.ofMillis(3)).build();
        List<RequestRecord> records = run(paced, Endpoint.CHAT_COMPLETIONS, 2);
        RequestRecord chat = records.get(1);
        assertThat(chat.succeeded()).isTrue();
        assertThat(chat.chunks().tokensAt(0)).isZero();
        assertThat(chat.chunkOutputTokens()).isEqualTo(TOKENS);
        // vLLM's TTFT starts at the role chunk (event 0), SGLang's at the first content (event 1).
        assertThat(chat.vllmTtftSeconds()).contains(RequestRecord.seconds(chat.chunks().nanosAt(0) - chat.sentNanos()));
        assertThat(chat.sglangTtftSeconds()).isEqualTo(RequestRecord.seconds(chat.chunks().nanosAt(1) - chat.sentNanos()));
    }
}
