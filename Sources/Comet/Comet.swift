// `import Comet` re-exports the modules the pipeline is built on, so one import gives the
// pipeline, `Imaging` (images, codecs, processors) and `Streams` (publishers).
@_exported import Imaging
@_exported import Streams
