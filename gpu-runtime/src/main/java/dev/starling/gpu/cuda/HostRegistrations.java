package dev.starling.gpu.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Host memory page-locked where it lies ({@code cuMemHostRegister}, called through the foreign
 * function API: JCuda's takes only a direct buffer's memory), so that copies from it cross
 * the link at pinned speed with no pass through a staging buffer: the chunks of table versions,
 * which never change while they live (Lutz's thesis, §3.3: a pinned copy reaches the link's
 * bandwidth, a pageable one a fraction of it). Registering costs what pinning fresh memory does
 * (0.1–0.2 s per GB), so each page is registered once and stays so until the owner closes its
 * {@link Registration}, which also keeps the memory reachable until then: memory freed while
 * registered could be mapped anew at the same address and copied from stale pages. At most
 * {@code capBytes} are registered at a time; past that, or where the driver refuses, copies of
 * that memory are staged as before, never wrong.
 */
public final class HostRegistrations implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HostRegistrations.class);
    /** Read-only suffices for copies to the device, and lets read-only file mappings (table files) be registered. */
    private static final int READ_ONLY_FLAGS = JCudaDriver.CU_MEMHOSTREGISTER_PORTABLE
            | JCudaDriver.CU_MEMHOSTREGISTER_READ_ONLY;

    private static final MethodHandle REGISTER = CudaDriverLibrary.DRIVER.function("cuMemHostRegister_v2",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    private static final MethodHandle UNREGISTER = CudaDriverLibrary.DRIVER.function("cuMemHostUnregister",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG));

    private final GpuDevice device;
    private final long capBytes;
    private final PageRanges pages = new PageRanges();
    private final List<Registration> open = new ArrayList<>();
    private boolean refusalLogged;

    HostRegistrations(GpuDevice device, long capBytes) {
        this.device = device;
        this.capBytes = capBytes;
    }

    /**
     * A piece of a copy: {@code bytes} at {@code address}, all inside the registered range that
     * starts at {@code range}, or inside none ({@link #NONE}).
     */
    @FunctionalInterface
    public interface Piece {
        long NONE = -1;

        void accept(long address, long bytes, long range);
    }

    /** The pages one owner registered, and the memory they lie in, which stays reachable until it is closed. */
    public final class Registration implements AutoCloseable {
        private final List<long[]> ranges;
        @SuppressWarnings({"unused", "FieldCanBeLocal"})
        private Object memory;

        private Registration(List<long[]> ranges, Object memory) {
            this.ranges = ranges;
            this.memory = memory;
        }

        /** Bytes of the pages it registered. */
        public long bytes() {
            return ranges.stream().mapToLong(r -> r[1] - r[0]).sum();
        }

        @Override
        public void close() {
            synchronized (HostRegistrations.this) {
                if (memory == null) {
                    return;
                }
                open.remove(this);
                unregister();
            }
        }

        private void unregister() {
            device.makeCurrent();
            try {
                for (long[] r : ranges) {
                    pages.remove(r[0]);
                    Cuda.check(CudaDriverLibrary.DRIVER.call(UNREGISTER, r[0]), "cuMemHostUnregister");
                }
            } finally {
                memory = null;
            }
        }
    }

    /**
     * Registers the pages under {@code [address, address + bytes)} that no registration covers yet,
     * while the cap allows; {@code memory} (what holds those bytes) stays reachable until the
     * returned registration is closed. Pages already registered, or refused, stay as they are.
     */
    public synchronized Registration register(long address, long bytes, Object memory) {
        device.makeCurrent();
        List<long[]> done = new ArrayList<>();
        for (long[] gap : pages.gaps(address, bytes)) {
            long size = gap[1] - gap[0];
            if (pages.bytes() + size > capBytes) {
                refused("gpu.pinned_table_bytes (" + capBytes + " bytes) is reached");
                break;
            }
            int result = CudaDriverLibrary.DRIVER.call(REGISTER, gap[0], size, READ_ONLY_FLAGS);
            if (result != CUresult.CUDA_SUCCESS) {
                result = CudaDriverLibrary.DRIVER.call(REGISTER, gap[0], size, JCudaDriver.CU_MEMHOSTREGISTER_PORTABLE);
            }
            if (result != CUresult.CUDA_SUCCESS) {
                refused("the driver answers " + CUresult.stringFor(result));
                break;
            }
            pages.add(gap[0], gap[1]);
            done.add(gap);
        }
        Registration r = new Registration(done, memory);
        open.add(r);
        return r;
    }

    /** Splits {@code [address, address + bytes)} into pieces each registered as one (pinned) or not registered at all. */
    public synchronized void split(long address, long bytes, Piece piece) {
        pages.split(address, bytes, piece);
    }

    /** The first page boundary at or after {@code address}: a registration covers whole pages only. */
    public static long pageAbove(long address) {
        return PageRanges.pageAbove(address);
    }

    /** Bytes registered now. */
    public synchronized long bytes() {
        return pages.bytes();
    }

    private void refused(String why) {
        if (!refusalLogged) {
            refusalLogged = true;
            LOG.info("table memory is no longer page-locked in place ({}): copies of the rest are staged", why);
        }
    }

    @Override
    public synchronized void close() {
        for (Registration r : List.copyOf(open)) {
            r.unregister();
        }
        open.clear();
    }
}
