import ArkivatorCore

// Tesseract's OpenMP runtime reads OMP_THREAD_LIMIT once, when it is loaded with the program:
// setting it later has no effect. Without a limit of 1, a page takes several times longer and
// parallel pages slow each other down, so the program starts itself again with it set.
OpenMPLimit.ensure()
Arkivator.main()
