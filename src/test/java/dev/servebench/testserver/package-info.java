/**
 * A scripted OpenAI-compatible streaming server for tests and client benchmarks.
 *
 * <p>In a test: {@code ScriptedServer.start(Script.of(plan))} (or {@code Script.builder()} with named plans
 * chosen by an {@code x-script} header, or plans by arrival index), send requests to
 * {@code server.baseUri()}, then compare what the client measured with {@code server.awaitEmissions(n, timeout)},
 * the server's own record of when each token chunk was written. {@link dev.servebench.testserver.Plan} sets
 * TTFT, gap, tokens per chunk, usage, SSE decorations and a {@link dev.servebench.testserver.Fault}.
 *
 * <p>Connection-level behaviour of real servers, per server via {@code ServerOptions.withConnection}:
 * {@link dev.servebench.testserver.ConnectionBehavior} closes after every Nth response without notice, or
 * announces {@code Connection: close}, speaks HTTP/1.0 (streams end at close), frames error and whole bodies by
 * Content-Length or chunked, closes idle keep-alive connections, and answers 503 while "loading the model".
 * {@code server.acceptedConnections()} and {@code server.serverClosedConnections()} show what a client did.
 *
 * <p>For a benchmark: run {@link dev.servebench.testserver.ScriptedServerMain} as its own process; it serves
 * every request from pre-rendered responses with one write each and prints {@code LISTENING <port>}.
 */
package dev.servebench.testserver;
