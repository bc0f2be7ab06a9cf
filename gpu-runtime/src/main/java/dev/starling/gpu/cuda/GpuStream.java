package dev.starling.gpu.cuda;

import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

/**
 * A CUDA stream of its own (not synchronizing with the default stream), for copies that overlap
 * host work, and the events that mark points in it.
 */
public final class GpuStream implements AutoCloseable {
    private final GpuDevice device;
    private final CUstream stream = new CUstream();
    private boolean closed;

    public GpuStream(GpuDevice device) {
        this.device = device;
        device.makeCurrent();
        Cuda.check(JCudaDriver.cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    }

    public CUstream handle() {
        return stream;
    }

    /** An event recorded now in this stream: it completes when everything queued before it has. */
    public Event record() {
        Event e = new Event();
        Cuda.check(JCudaDriver.cuEventRecord(e.event, stream), "cuEventRecord");
        return e;
    }

    /** An event recorded now in the default stream: it completes when everything queued there before it has. */
    public static Event recordDefault() {
        Event e = new Event();
        Cuda.check(JCudaDriver.cuEventRecord(e.event, null), "cuEventRecord");
        return e;
    }

    /** Makes what is queued in this stream from now on wait until {@code e} has completed. */
    public void awaitEvent(Event e) {
        Cuda.check(JCudaDriver.cuStreamWaitEvent(stream, e.event, 0), "cuStreamWaitEvent");
    }

    /** Makes what is queued in the default stream from now on wait until {@code e} has completed. */
    public static void defaultAwaits(Event e) {
        Cuda.check(JCudaDriver.cuStreamWaitEvent(null, e.event, 0), "cuStreamWaitEvent");
    }

    /** Waits for everything queued in this stream, surfacing any error of it. */
    public void synchronize(String after) {
        device.makeCurrent();
        Cuda.check(JCudaDriver.cuStreamSynchronize(stream), "stream work " + after);
    }

    /** A point in a stream; closing it destroys the event. */
    public static final class Event implements AutoCloseable {
        private final CUevent event = new CUevent();
        private boolean closed;

        private Event() {
            Cuda.check(JCudaDriver.cuEventCreate(event, CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate");
        }

        /** Blocks the calling thread until the stream has passed this point. */
        public void await(String what) {
            Cuda.check(JCudaDriver.cuEventSynchronize(event), what);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                JCudaDriver.cuEventDestroy(event);
            }
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            device.makeCurrent();
            Cuda.check(JCudaDriver.cuStreamDestroy(stream), "cuStreamDestroy");
        }
    }
}
