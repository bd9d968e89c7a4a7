package dev.servebench.spec;

import java.net.URI;

/** Local servers started for a run are reached on loopback. */
final class Ports {

    static final int MAX = 65_535;

    private Ports() {
    }

    static void check(int port) {
        if (port < 1 || port > MAX) {
            throw new IllegalArgumentException("port (" + port + ") must be in [1, " + MAX + "]");
        }
    }

    static URI loopback(int port) {
        return URI.create("http://127.0.0.1:" + port);
    }
}
