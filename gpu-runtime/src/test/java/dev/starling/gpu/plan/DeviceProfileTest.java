package dev.starling.gpu.plan;

import dev.starling.gpu.cuda.DeviceProfile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.starling.gpu.cuda.BankGeometry;
import org.junit.jupiter.api.Test;

/** Profiles by name, and a detected device's: its own sizes with its model's rates. */
class DeviceProfileTest {
    @Test
    void namedProfilesAndAnUnknownName() {
        assertEquals(DeviceProfile.H100_80GB, DeviceProfile.named(" H100-80GB"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceProfile.named("v100"));
        assertEquals("unknown GPU profile 'v100': the profiles are h100-80gb, h200-141gb, a100-80gb", e.getMessage());
    }

    @Test
    void aDetectedDeviceKeepsItsSizesAndTakesItsModelsRates() {
        DeviceProfile h100 = DeviceProfile.detected("NVIDIA H100 80GB HBM3", 85_045_215_232L, 132, 232_448,
                BankGeometry.DEFAULT);
        assertEquals("h100-80gb", h100.name());
        assertEquals(85_045_215_232L, h100.memoryBytes());
        assertEquals(DeviceProfile.H100_80GB.deviceBytesPerSecond(), h100.deviceBytesPerSecond());
        assertEquals(DeviceProfile.H200_141GB.linkBytesPerSecond(),
                DeviceProfile.detected("NVIDIA H200", 1L << 37, 132, 232_448, BankGeometry.DEFAULT).linkBytesPerSecond());
        assertEquals(DeviceProfile.H100_80GB.hostProbesPerSecond(),
                DeviceProfile.detected("NVIDIA L4", 1L << 34, 58, 101_376, BankGeometry.DEFAULT).hostProbesPerSecond(),
                "an unknown model plans with the H100's rates");
    }

    @Test
    void estimatedProfilesScaleTheH100sMeasuredShareOfItsDatasheet() {
        DeviceProfile h200 = DeviceProfile.H200_141GB;
        assertEquals(4.8e12 * 2.99 / 3.35, h200.deviceBytesPerSecond(), 1e6);
        assertEquals(DeviceProfile.H100_80GB.deviceProbesPerSecond() * h200.deviceBytesPerSecond()
                / DeviceProfile.H100_80GB.deviceBytesPerSecond(), h200.deviceProbesPerSecond(), 1);
    }
}
