package dev.servebench.telemetry.gpu;

/** Everything the sampler keeps about one GPU: exact running statistics plus a bounded time series. */
final class GpuAccumulator {

    private final int index;
    private final BoundedSamples<GpuReading> readings;
    private final RunningStat power = new RunningStat();
    private final RunningStat gpuUtilization = new RunningStat();
    private final RunningStat memoryUtilization = new RunningStat();
    private final RunningStat memoryUsed = new RunningStat();
    private final RunningStat temperature = new RunningStat();
    private final RunningStat smClock = new RunningStat();
    private GpuSample last;
    private long samples;

    GpuAccumulator(int index, int maxReadings) {
        this.index = index;
        this.readings = new BoundedSamples<>(maxReadings);
    }

    void add(GpuSample s) {
        if (s.index() != index) {
            throw new IllegalArgumentException("sample of GPU " + s.index() + " given to GPU " + index);
        }
        samples++;
        last = s;
        power.add(s.powerDrawW());
        gpuUtilization.add(s.gpuUtilizationPct());
        memoryUtilization.add(s.memoryUtilizationPct());
        memoryUsed.add(s.memoryUsedMiB());
        temperature.add(s.temperatureC());
        smClock.add(s.smClockMHz());
        readings.offer(GpuReading.of(s));
    }

    long samples() {
        return samples;
    }

    /** The identity fields come from the last sample: nvidia-smi repeats them on every line. */
    GpuReport report() {
        if (last == null) {
            throw new IllegalStateException("GPU " + index + " has no sample");
        }
        GpuSummary summary = new GpuSummary(samples, power.mean(), power.max(), last.powerLimitW(),
                gpuUtilization.mean(), gpuUtilization.max(), memoryUtilization.mean(), memoryUsed.max(),
                last.memoryTotalMiB(), temperature.max(), smClock.mean());
        return new GpuReport(index, last.name(), last.uuid(), last.driverVersion(), summary, readings.items(),
                readings.stride());
    }
}
