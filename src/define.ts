// Registers every tag of the library. Elements add their define modules here as they land.
import './viewers/glb-viewer/define.js';
