package dev.servebench.load;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A loopback server, private to this process, that answers every request at once with one canned stream in
 * the format of the endpoint asked for (OpenAI completions or chat, SGLang {@code /generate}). It exists so
 * that the client's whole hot path — socket reads, HTTP decoding, SSE and chunk parsing, record building —
 * can be run until the JIT has compiled it, without sending one extra request to the server under test.
 */
final class LoopbackStreamServer implements AutoCloseable {

    private final EventLoopGroup group;
    private final Channel listener;
    private final ByteBuf completions;
    private final ByteBuf chat;
    private final ByteBuf generate;

    LoopbackStreamServer(int events) throws InterruptedException {
        completions = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(stream(events, Format.COMPLETIONS)));
        chat = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(stream(events, Format.CHAT)));
        generate = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(stream(events, Format.GENERATE)));
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("servebench-warmup-server", true),
                NioIoHandler.newFactory());
        listener = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline()
                                .addLast(new HttpRequestDecoder())
                                .addLast(new HttpObjectAggregator(1 << 24))
                                .addLast(new Responder());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) listener.localAddress()).getPort());
    }

    private final class Responder extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            String path = request.uri();
            ByteBuf canned = path.endsWith("/generate") ? generate
                    : path.endsWith("/chat/completions") ? chat : completions;
            ctx.writeAndFlush(canned.duplicate());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private enum Format { COMPLETIONS, CHAT, GENERATE }

    /** Headers and a chunked body of {@code events} one-token events, a usage event and {@code [DONE]}. */
    private static byte[] stream(int events, Format format) {
        StringBuilder body = new StringBuilder(
                "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n");
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < events; i++) {
            text.append(" t").append(i);
            String data = switch (format) {
                case COMPLETIONS -> "{\"id\":\"cmpl-0\",\"object\":\"text_completion\",\"created\":0,\"model\":\"warmup\","
                        + "\"choices\":[{\"index\":0,\"text\":\" t" + i + "\",\"logprobs\":null,\"finish_reason\":null}]}";
                case CHAT -> "{\"id\":\"chatcmpl-0\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"warmup\","
                        + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" t" + i + "\"},\"finish_reason\":null}]}";
                case GENERATE -> "{\"text\":\"" + text + "\",\"meta_info\":{\"prompt_tokens\":3,\"completion_tokens\":"
                        + (i + 1) + "}}";
            };
            chunk(body, "data: " + data + "\n\n");
        }
        if (format != Format.GENERATE) {
            chunk(body, "data: {\"id\":\"x\",\"object\":\"text_completion\",\"created\":0,\"model\":\"warmup\",\"choices\":[],"
                    + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":" + events + ",\"total_tokens\":"
                    + (events + 3) + "}}\n\n");
        }
        chunk(body, "data: [DONE]\n\n");
        body.append("0\r\n\r\n");
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void chunk(StringBuilder body, String data) {
        int length = data.getBytes(StandardCharsets.UTF_8).length;
        body.append(Integer.toHexString(length)).append("\r\n").append(data).append("\r\n");
    }

    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
