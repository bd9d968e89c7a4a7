package dev.servebench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** Checks, before any load, that the server answers, and finds its model name. */
final class ServerProbe {

    /** The server could not be reached at all; the message is one line for the user. */
    static final class UnreachableException extends Exception {
        UnreachableException(String message) {
            super(message);
        }
    }

    private ServerProbe() {}

    /**
     * GETs {@code /v1/models}. Any HTTP answer proves the server is up; the first model id is returned when
     * the answer is an OpenAI model list.
     */
    static Optional<String> firstModel(URI baseUrl, Optional<String> apiKey) throws UnreachableException {
        URI models = URI.create(stripSlash(baseUrl.toString()) + "/v1/models");
        HttpRequest.Builder request = HttpRequest.newBuilder(models).timeout(Duration.ofSeconds(30)).GET();
        apiKey.ifPresent(key -> request.header("Authorization", "Bearer " + key));
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return Optional.empty();
            }
            JsonNode data = new ObjectMapper().readTree(response.body()).path("data");
            return data.isArray() && !data.isEmpty() && data.get(0).path("id").isTextual()
                    ? Optional.of(data.get(0).path("id").asText())
                    : Optional.empty();
        } catch (ConnectException e) {
            throw new UnreachableException("cannot reach " + baseUrl + ": connection refused");
        } catch (java.net.http.HttpConnectTimeoutException e) {
            throw new UnreachableException("cannot reach " + baseUrl + ": connect timed out");
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UnreachableException("cannot reach " + baseUrl + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnreachableException("interrupted while probing " + baseUrl);
        }
    }

    static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
