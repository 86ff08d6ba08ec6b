/** Every style of the library for the admin shell and the screens behind it (the entry has the public pages' part). */
import '@mantine/core/styles.layer.css';
import '@mantine/dropzone/styles.layer.css';
