/// The real-time guard, in seconds, of a test whose every step is a hop through the cooperative
/// pool (a hundred readers, hundreds of yields). In a full run each hop waits behind the
/// hundreds of tests queued with it: such tests took 20-50 s there, under 2 s alone. The guard
/// is for a hang, so it leaves a loaded run room.
let manyHopsLimit: Double = 120
