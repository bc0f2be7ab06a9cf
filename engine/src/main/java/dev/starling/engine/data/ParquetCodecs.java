package dev.starling.engine.data;

import io.airlift.compress.Compressor;
import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet's page codecs in Java: Snappy, ZSTD and LZ4_RAW through aircompressor, GZIP through
 * {@code java.util.zip}. parquet-java's own factory makes a Hadoop configuration (and so wants
 * Hadoop's XML and collection libraries) for any codec, and its Snappy and ZSTD bring native
 * libraries for every platform; this one needs neither. Other codecs (LZO, BROTLI, the old LZ4)
 * are refused by name.
 */
final class ParquetCodecs implements CompressionCodecFactory {
    static final ParquetCodecs INSTANCE = new ParquetCodecs();

    private ParquetCodecs() { }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED -> compressor(codec, bytes -> bytes);
            case GZIP -> compressor(codec, bytes -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
                    bytes.writeAllTo(gzip);
                }
                return BytesInput.from(out.toByteArray());
            });
            case SNAPPY -> blocks(codec, new SnappyCompressor());
            case ZSTD -> blocks(codec, new ZstdCompressor());
            case LZ4_RAW -> blocks(codec, new Lz4Compressor());
            default -> throw unsupported(codec);
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED -> decompressor((in, size) -> in);
            case GZIP -> decompressor((in, size) -> {
                try (InputStream gzip = new GZIPInputStream(in.toInputStream())) {
                    return BytesInput.from(gzip.readNBytes(size));
                }
            });
            case SNAPPY -> blocks(new SnappyDecompressor());
            case ZSTD -> blocks(new ZstdDecompressor());
            case LZ4_RAW -> blocks(new Lz4Decompressor());
            default -> throw unsupported(codec);
        };
    }

    @Override
    public void release() { }

    private static UnsupportedOperationException unsupported(CompressionCodecName codec) {
        return new UnsupportedOperationException("Parquet pages compressed with " + codec + " are not supported "
                + "(UNCOMPRESSED, SNAPPY, GZIP, ZSTD and LZ4_RAW are)");
    }

    private interface Transform {
        BytesInput apply(BytesInput bytes) throws IOException;
    }

    private static BytesInputCompressor compressor(CompressionCodecName codec, Transform transform) {
        return new BytesInputCompressor() {
            @Override
            public BytesInput compress(BytesInput bytes) throws IOException {
                return transform.apply(bytes);
            }

            @Override
            public CompressionCodecName getCodecName() {
                return codec;
            }

            @Override
            public void release() { }
        };
    }

    /** A block codec's compressor: the page in one block, as Parquet's raw codecs frame it. */
    private static BytesInputCompressor blocks(CompressionCodecName codec, Compressor compressor) {
        return compressor(codec, bytes -> {
            byte[] in = bytes.toByteArray();
            byte[] out = new byte[compressor.maxCompressedLength(in.length)];
            int n = compressor.compress(in, 0, in.length, out, 0, out.length);
            return BytesInput.from(out, 0, n);
        });
    }

    private interface Inflate {
        BytesInput apply(BytesInput in, int uncompressedSize) throws IOException;
    }

    private static BytesInputDecompressor decompressor(Inflate inflate) {
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
                return inflate.apply(bytes, uncompressedSize);
            }

            @Override
            public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                    throws IOException {
                byte[] in = new byte[compressedSize];
                input.get(in);
                output.put(inflate.apply(BytesInput.from(in), uncompressedSize).toByteArray());
            }

            @Override
            public void release() { }
        };
    }

    private static BytesInputDecompressor blocks(Decompressor decompressor) {
        return decompressor((in, size) -> {
            byte[] compressed = in.toByteArray();
            byte[] out = new byte[size];
            int n = decompressor.decompress(compressed, 0, compressed.length, out, 0, size);
            if (n != size) {
                throw new IOException("a Parquet page decompressed to " + n + " bytes, its header says " + size);
            }
            return BytesInput.from(out);
        });
    }
}
