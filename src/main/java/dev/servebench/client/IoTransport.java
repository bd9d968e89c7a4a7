package dev.servebench.client;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The event loops' I/O transport. Linux's epoll through Netty's native transport where it loads, Java NIO
 * elsewhere: the native one wakes a loop and reads a socket with fewer steps, which shows in the tail of the
 * timing error against a server's own emission log (docs/client.md, "Transport").
 * {@code -Dservebench.client.transport=nio} forces NIO (for comparison, or where the native library is unwanted).
 */
public enum IoTransport {
    EPOLL, NIO;

    /** The system property that overrides the choice: {@code nio} or {@code epoll}. */
    public static final String PROPERTY = "servebench.client.transport";

    /** What this JVM uses: the property when set (refused when it names epoll and epoll cannot load), else the best available. */
    public static IoTransport chosen() {
        return choose(System.getProperty(PROPERTY), Epoll.isAvailable(),
                () -> String.valueOf(Epoll.unavailabilityCause()));
    }

    static IoTransport choose(String forced, boolean epollAvailable, Supplier<String> whyNoEpoll) {
        if (forced == null || forced.isBlank()) {
            return epollAvailable ? EPOLL : NIO;
        }
        IoTransport transport = switch (forced.trim().toLowerCase(Locale.ROOT)) {
            case "epoll" -> EPOLL;
            case "nio" -> NIO;
            default -> throw new IllegalArgumentException(
                    "-D" + PROPERTY + "=" + forced + ": expected 'epoll' or 'nio'");
        };
        if (transport == EPOLL && !epollAvailable) {
            throw new IllegalStateException("-D" + PROPERTY + "=epoll, but Netty's epoll transport cannot load here: "
                    + whyNoEpoll.get());
        }
        return transport;
    }

    IoHandlerFactory handlerFactory() {
        return switch (this) {
            case EPOLL -> EpollIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
        };
    }

    Class<? extends SocketChannel> channelClass() {
        return switch (this) {
            case EPOLL -> EpollSocketChannel.class;
            case NIO -> NioSocketChannel.class;
        };
    }

    /** As the summary names it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
