package dev.servebench.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** The command line of {@code servebench serve} as a separate JVM on this test class path, and free ports. */
public final class ServeProcess {

    private ServeProcess() {
    }

    public static List<String> command(int port, String... args) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), "dev.servebench.cli.Main", "serve", "--port", Integer.toString(port)));
        command.addAll(List.of(args));
        return command;
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port", e);
        }
    }
}
