package dev.servebench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.Test;

class IoTransportTest {

    @Test
    void epollWhereItLoadsElseNio() {
        assertThat(IoTransport.choose(null, true, () -> "")).isEqualTo(IoTransport.EPOLL);
        assertThat(IoTransport.choose(" ", false, () -> "")).isEqualTo(IoTransport.NIO);
    }

    @Test
    void thePropertyForcesEitherAndNamesWhatItExpects() {
        assertThat(IoTransport.choose("NIO", true, () -> "")).isEqualTo(IoTransport.NIO);
        assertThat(IoTransport.choose("epoll", true, () -> "")).isEqualTo(IoTransport.EPOLL);
        assertThatThrownBy(() -> IoTransport.choose("uring", true, () -> ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-Dservebench.client.transport=uring: expected 'epoll' or 'nio'");
        assertThatThrownBy(() -> IoTransport.choose("epoll", false, () -> "not Linux"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageEndingWith("cannot load here: not Linux");
    }

    @Test
    void theBuildShipsTheNativeTransportForThisMachine() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux") && System.getProperty("os.arch").equals("amd64"),
                "the build ships Netty's epoll library for Linux x86_64 only; elsewhere the client uses NIO");
        assertThat(Epoll.isAvailable()).as("%s", Epoll.unavailabilityCause()).isTrue();
        assertThat(IoTransport.chosen()).isEqualTo(IoTransport.EPOLL);
    }
}
