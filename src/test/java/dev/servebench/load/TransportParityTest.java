package dev.servebench.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.IoTransport;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import dev.servebench.testserver.ConnectionBehavior;
import dev.servebench.testserver.Fault;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import dev.servebench.testserver.ServerOptions;
import dev.servebench.workload.PromptRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The client's two I/O transports (epoll, the default on Linux, and NIO) end every request alike: the same
 * faults, a server that closes after every second response, the same records. ClientFaultsTest and the fault
 * suites run on the default transport; this keeps NIO, the fallback elsewhere, from drifting.
 */
class TransportParityTest {

    private static final int TOKENS = 6;
    private static final int REQUESTS = 8;

    @Test
    void bothTransportsRecordTheSameOutcomesAgainstTheSameFaults() throws Exception {
        assertThat(outcomes(IoTransport.NIO)).isEqualTo(outcomes(IoTransport.chosen()))
                .containsExactly("ok", "reset", "http_status", "ok", "ok", "ok", "ok", "ok");
    }

    private static List<String> outcomes(IoTransport transport) throws Exception {
        Script script = Script.builder().byIndex(i -> switch ((int) i) {
            case 1 -> Plan.builder().fault(Fault.resetAfter(2)).build();
            case 2 -> Plan.builder().fault(Fault.httpError(503, "overloaded", "busy")).build();
            default -> Plan.fullSpeed();
        }).build();
        ServerOptions options = ServerOptions.defaults()
                .withConnection(ConnectionBehavior.keepAlive().withCloseAfterResponses(2));
        RequestBodies bodies = new RequestBodies(Endpoint.COMPLETIONS, Optional.of("m"), true, null);
        List<PreparedRequest> prepared = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            prepared.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, new int[] {11, 12, 13}, TOKENS)));
        }
        List<String> outcomes = new ArrayList<>();
        List<RequestRecord> records;
        try (ScriptedServer server = ScriptedServer.start(script, options);
             StreamingClient client = new StreamingClient(new ClientConfig(server.baseUri(), Endpoint.COMPLETIONS,
                     Optional.empty(), 1, Duration.ofSeconds(10)), NanoClock.startingNow(), transport)) {
            assertThat(client.transport()).isEqualTo(transport);
            // Concurrency 1: arrival order is index order, so each fault lands on its request.
            try (LoadPointResult result = new LoadDriver(client).run(prepared, new long[REQUESTS], 1, r -> { },
                    LoadProgress.NONE)) {
                assertThat(result.clientUsage().ioTransport()).isEqualTo(transport);
                records = result.records();
            }
            for (RequestRecord r : records) {
                if (r.succeeded()) {
                    assertThat(r.chunkOutputTokens()).as("%s request %d", transport, r.index()).isEqualTo(TOKENS);
                    outcomes.add("ok");
                } else {
                    FailureKind kind = ((Outcome.Failure) r.outcome()).kind();
                    outcomes.add(kind.name().toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return outcomes;
    }
}
