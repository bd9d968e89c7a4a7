package dev.servebench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which idle connection a request gets: its own loop's first, the loops in turn from other threads. */
class IdleConnectionsTest {

    private MultiThreadIoEventLoopGroup group;
    private EventLoop first;
    private EventLoop second;

    @BeforeEach
    void loops() {
        group = new MultiThreadIoEventLoopGroup(2, LocalIoHandler.newFactory());
        first = group.next();
        second = group.next();
        assertThat(first).isNotSameAs(second);
    }

    @AfterEach
    void close() {
        group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).syncUninterruptibly();
    }

    private Channel channelOn(EventLoop loop) {
        LocalChannel channel = new LocalChannel();
        loop.register(channel).syncUninterruptibly();
        return channel;
    }

    @Test
    void aRequestSentFromALoopTakesThatLoopsConnectionEvenWhenAnotherWasReleasedLater() throws Exception {
        IdleConnections idle = new IdleConnections();
        Channel onFirst = channelOn(first);
        Channel onSecond = channelOn(second);
        idle.pushFirst(onFirst);
        idle.pushFirst(onSecond);

        assertThat(first.submit(idle::poll).get()).isSameAs(onFirst);
        assertThat(first.submit(idle::poll).get()).as("none left on its loop: another loop's").isSameAs(onSecond);
        assertThat(first.submit(idle::poll).get()).isNull();
    }

    @Test
    void withinALoopTheMostRecentlyReleasedComesFirstAndNewOnesQueueBehind() throws Exception {
        IdleConnections idle = new IdleConnections();
        Channel opened = channelOn(first);
        Channel released = channelOn(first);
        idle.pushLast(opened);
        idle.pushFirst(released);

        assertThat(first.submit(idle::poll).get()).isSameAs(released);
        assertThat(first.submit(idle::poll).get()).isSameAs(opened);
    }

    @Test
    void aBurstFromAnotherThreadIsSpreadOverTheLoops() {
        IdleConnections idle = new IdleConnections();
        // All of one loop's first: a single queue would hand the first four requests to one loop.
        for (int i = 0; i < 4; i++) {
            idle.pushLast(channelOn(first));
        }
        for (int i = 0; i < 4; i++) {
            idle.pushLast(channelOn(second));
        }
        assertThat(idle.size()).isEqualTo(8);

        Set<EventLoop> firstTwo = new HashSet<>();
        firstTwo.add(idle.poll().eventLoop());
        firstTwo.add(idle.poll().eventLoop());
        assertThat(firstTwo).containsExactlyInAnyOrder(first, second);
        for (int i = 0; i < 6; i++) {
            assertThat(idle.poll()).isNotNull();
        }
        assertThat(idle.poll()).isNull();
        assertThat(idle.size()).isZero();
    }
}
